import { effect } from "@preact/signals-react";
import { i18n } from "../i18n";
import { persistedSignal } from "./persisted";

export const LANGUAGES = [
  { code: "zh", name: "中文" },
  { code: "en", name: "English" },
] as const;
export type Language = (typeof LANGUAGES)[number]["code"];

const stored = persistedSignal<Language>("language", "zh");
if (!LANGUAGES.some((l) => l.code === stored.value)) stored.value = "zh";
export const language = stored;

effect(() => {
  i18n.activate(language.value);
  document.documentElement.lang = language.value;
});
