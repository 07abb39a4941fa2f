import { effect } from "@preact/signals-react";
import { persistedSignal } from "./persisted";

export type Theme = "light" | "dark";

const preferred: Theme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
export const theme = persistedSignal<Theme>("theme", preferred);

effect(() => {
  document.documentElement.dataset.theme = theme.value;
});

export const toggleTheme = () => {
  theme.value = theme.value === "dark" ? "light" : "dark";
};
