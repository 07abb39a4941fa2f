export const LANGUAGES = ["zh", "en"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The TUI's language: --lang when given, else the environment's locale (LC_ALL, then LC_MESSAGES, then
 * LANG, as POSIX orders them): English when it names English (en, en_US.UTF-8, ...), otherwise Chinese,
 * the product's default language, also when no locale is set or it is C/POSIX.
 */
export function languageOf(flag: string | undefined, env: Record<string, string | undefined> = process.env): Language {
  if (flag === "zh" || flag === "en") return flag;
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || "";
  return /^en([_.@-]|$)/i.test(locale) ? "en" : "zh";
}
