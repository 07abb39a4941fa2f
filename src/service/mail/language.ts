/** The languages mails are written in: the console's two, Chinese first (its fallback). */
export type MailLanguage = "zh" | "en";

/** The reader's language from a request's Accept-Language: English when the first tag asks for it, else Chinese. */
export function mailLanguageOf(acceptLanguage: string | null | undefined): MailLanguage {
  const first = (acceptLanguage ?? "").split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("en") ? "en" : "zh";
}
