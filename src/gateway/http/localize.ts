import { languageOfHeader, translateMessage } from "../../service/i18n/translate";

/**
 * A management reply's message in the language the request asks for (Accept-Language; the console sends
 * its own). Without the header the message goes as written, so scripts read the same words as before.
 */
export function localized(request: Request, message: string): string {
  const language = languageOfHeader(request.headers.get("accept-language"));
  return language ? translateMessage(message, language) : message;
}

/** A {success, message, …} reply of /api with its message localized; anything else unchanged. */
export function localizeReply(request: Request, reply: unknown): unknown {
  if (!reply || typeof reply !== "object" || reply instanceof Response) return reply;
  const { message } = reply as { message?: unknown };
  if (typeof message !== "string" || !message || !("success" in reply)) return reply;
  const translated = localized(request, message);
  return translated === message ? reply : { ...reply, message: translated };
}

/** A log page with the contents the server wrote (balance changes) worded in the language the request asks for. */
export function localizeLogContents<T extends { items: { content?: string | null }[] }>(request: Request, page: T): T {
  const language = languageOfHeader(request.headers.get("accept-language"));
  if (!language || language === "en") return page;
  const items = page.items.map((row) =>
    row.content ? { ...row, content: translateMessage(row.content, language) } : row,
  );
  return { ...page, items };
}
