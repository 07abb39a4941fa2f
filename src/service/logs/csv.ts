/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. */
export function csvField(value: string | number | boolean): string {
  if (typeof value !== "string") return String(value);
  // A cell starting like a formula would run in a spreadsheet; a leading apostrophe keeps it text.
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated. */
export const csvLine = (values: (string | number | boolean)[]): string => `${values.map(csvField).join(",")}\r\n`;
