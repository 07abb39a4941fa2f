/** What the relay looks for in an event stream's bytes, read without decoding them. */
export const LF = 10;
export const CR = 13;
/** A data line's opening. */
export const DATA_LINE = Buffer.from("data: ");
/** The key of a usage report (whether it opens an object is the reader's to check). */
export const USAGE_KEY = Buffer.from('"usage"');

/** Whether `bytes` hold `prefix` from `at` on (false when it would run past their end or start before it). */
export function startsAt(bytes: Uint8Array, prefix: Uint8Array, at: number): boolean {
  if (at < 0 || at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}
