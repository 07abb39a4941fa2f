/** What JSON.stringify escapes in a string: quotes, backslashes, control characters; and surrogates, lone or paired. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON.stringify's text for a JSON value, for writing JSON from a template: a string with nothing to escape and a
 * finite number are written directly (JSON.stringify of a bare string costs several times the string's length).
 */
export function jsonText(value: unknown): string {
  if (typeof value === "string") return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return JSON.stringify(value);
}
