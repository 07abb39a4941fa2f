import { ZH_MESSAGES } from "./zh";
import { ZH_LOG_CONTENTS } from "./zh-log-contents";
import { ZH_RELAY_MESSAGES } from "./zh-relay";

/** The languages the product speaks; messages are written in English, Chinese is the fallback for people. */
export const MESSAGE_LANGUAGES = ["zh", "en"] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

const CATALOGS: Record<MessageLanguage, Readonly<Record<string, string>>> = {
  zh: { ...ZH_RELAY_MESSAGES, ...ZH_LOG_CONTENTS, ...ZH_MESSAGES },
  en: {},
};

interface Template {
  pattern: RegExp;
  translated: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The catalog's templates (keys with {n}) as patterns, the most literal text first so the most specific wins. */
function templatesOf(catalog: Readonly<Record<string, string>>): Template[] {
  return Object.entries(catalog)
    .filter(([key]) => /\{\d+\}/.test(key))
    .sort(([a], [b]) => b.replace(/\{\d+\}/g, "").length - a.replace(/\{\d+\}/g, "").length)
    .map(([key, translated]) => ({
      pattern: new RegExp(`^${escapeRegExp(key).replace(/\\\{\d+\\\}/g, "([\\s\\S]*?)")}$`),
      translated,
    }));
}

const templates = new Map<MessageLanguage, Template[]>();

/**
 * `message` in `language`: its catalog entry, or the entry of the template it was made from with the same
 * values filled in (a value that is itself a message, such as "channel" in "channel not found", is translated
 * too). A message the catalog lacks is sent as written.
 */
export function translateMessage(message: string, language: MessageLanguage): string {
  const catalog = CATALOGS[language];
  const exact = catalog[message];
  if (exact !== undefined) return exact;
  if (language === "en" || !message) return message;
  let list = templates.get(language);
  if (!list) templates.set(language, (list = templatesOf(catalog)));
  for (const { pattern, translated } of list) {
    const values = pattern.exec(message);
    if (values) {
      return translated.replace(/\{(\d+)\}/g, (_, n: string) => {
        const value = values[Number(n) + 1] ?? "";
        return catalog[value] ?? value;
      });
    }
  }
  return message;
}

/**
 * The language a request asks for in Accept-Language (the console sends its own): the first of zh or en it
 * names; Chinese when it names only others; undefined without the header, so scripts get the words as written.
 */
export function languageOfHeader(header: string | null | undefined): MessageLanguage | undefined {
  if (!header) return undefined;
  for (const part of header.split(",")) {
    const tag = part.split(";")[0]!.trim().toLowerCase();
    if (tag.startsWith("zh")) return "zh";
    if (tag.startsWith("en")) return "en";
  }
  return "zh";
}

/** The CLI's language: --lang, else the locale (LC_ALL, LC_MESSAGES, LANG) when it names zh or en, else English. */
export function languageOfLocale(
  flag: string | undefined,
  env: Record<string, string | undefined> = process.env,
): MessageLanguage {
  if (flag === "zh" || flag === "en") return flag;
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || "";
  return /^zh([_.@-]|$)/i.test(locale) ? "zh" : "en";
}
