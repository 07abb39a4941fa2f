import { t } from "@lingui/core/macro";

/** The lowest priority a channel may have (the server refuses lower). */
export const MIN_PRIORITY = -999;

export type Parsed = { ok: true; value: number } | { ok: false; message: string };

const integerOf = (text: string) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : NaN);

/** An integer rule: below `min` is raised to it (`clamp`) or refused. */
const integerRule =
  (min: number, clamp: boolean, message: () => string) =>
  (text: string): Parsed => {
    const n = integerOf(text);
    if (!Number.isSafeInteger(n) || (!clamp && n < min)) return { ok: false, message: message() };
    return { ok: true, value: Math.max(min, n) };
  };

const priorityMessage = () => t`The priority must be an integer!`;
const weightMessage = () => t`The weight must be a non-negative integer!`;

/** Inline edits of one channel: priority raised to -999, weight to 0 when lower. */
export const channelPriority = integerRule(MIN_PRIORITY, true, priorityMessage);
export const channelWeight = integerRule(0, true, weightMessage);
/** Edits of every channel with a tag: out-of-range values are refused. */
export const tagPriority = integerRule(MIN_PRIORITY, false, priorityMessage);
export const tagWeight = integerRule(0, false, weightMessage);

/** A JSON text field of a channel: blank, or a JSON object. */
export function isJsonObjectText(text: string): boolean {
  if (!text.trim()) return true;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Response time colours of spec §4: 0 untested; up to 1 s green, up to 3 s lime, up to 5 s yellow, above red. */
export function responseTone(ms: number): "untested" | "green" | "lime" | "yellow" | "red" {
  if (ms <= 0) return "untested";
  if (ms <= 1000) return "green";
  if (ms <= 3000) return "lime";
  return ms <= 5000 ? "yellow" : "red";
}

/** A test's duration: milliseconds under a second, else seconds with two decimals. */
export const formatDuration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);

/** Why and when the server disabled a channel (other_info), when it says. */
export function disableReasonOf(otherInfo: string): { reason: string; time: number } | undefined {
  try {
    const info = JSON.parse(otherInfo) as { status_reason?: unknown; status_time?: unknown };
    if (typeof info.status_reason !== "string") return undefined;
    return { reason: info.status_reason, time: typeof info.status_time === "number" ? info.status_time : 0 };
  } catch {
    return undefined;
  }
}
