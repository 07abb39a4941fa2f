import { formatDateTime } from "../../date-time";

/** Times on the log, record and dashboard screens: unix seconds on the wire, local time on screen. */

const pad = (n: number) => String(n).padStart(2, "0");

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Midnight of today, local time, in unix seconds. */
export function startOfToday(): number {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

/** A datetime-local input's value ("YYYY-MM-DDTHH:mm") for unix seconds. */
export function toLocalInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Unix seconds of a datetime-local value; blank or unreadable gives undefined (no bound). */
export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** "yyyy-MM-dd HH:mm:ss" in local time; 0 (never set) gives "". */
export const formatTime = (seconds: number): string => (seconds ? formatDateTime(seconds) : "");

/** The time inputs of a filter: the default range goes from `start` to an hour ahead. */
export const defaultRange = (start: number) => ({ start: toLocalInput(start), end: toLocalInput(nowSeconds() + 3600) });
