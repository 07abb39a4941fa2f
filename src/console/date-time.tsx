const pad = (n: number) => String(n).padStart(2, "0");

/** A unix time (seconds) as local `yyyy-MM-dd HH:mm:ss`, the format tables show and the token form takes. */
export function formatDateTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** The unix time (seconds) of a local `yyyy-MM-dd HH:mm[:ss]`; NaN when the text is no such date. */
export function parseDateTime(text: string): number {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return NaN;
  const [year, month, day, hour, minute, second = 0] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  const date = new Date(year!, month! - 1, day, hour, minute, second);
  const same = date.getMonth() === month! - 1 && date.getDate() === day && date.getHours() === hour;
  return same && minute! < 60 && second < 60 ? Math.floor(date.getTime() / 1000) : NaN;
}

/** A unix time (seconds) as yyyy-MM-dd HH:mm:ss on one line. */
export const DateTime = ({ seconds }: { seconds: number }) => (
  <span className="whitespace-nowrap">{formatDateTime(seconds)}</span>
);
