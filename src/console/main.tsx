import { createRoot } from "react-dom/client";
import "./state/theme";
import "./state/language";
import { App } from "./App";
import { loadPlatformStatus } from "./state/status";

void loadPlatformStatus();
createRoot(document.getElementById("root")!).render(<App />);
