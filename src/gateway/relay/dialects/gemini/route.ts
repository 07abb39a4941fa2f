import type { RouteFacts } from "../types";
import { modelActionOf } from "./model-path";

/** `/v1beta/models/{model}:{action}` (and `/v1/models/…`, which @google/genai 3.x calls): what the URL says. */
export function geminiRouteFacts(url: URL): Omit<RouteFacts, "url" | "countOnly"> {
  const tail = url.pathname.replace(/^\/v1(beta)?\//, "");
  const { model, action } = modelActionOf(tail);
  return { model, action, stream: action === "streamGenerateContent" };
}
