import { refuse } from "../errors";
import { idOf } from "../input";

/** The entries of a comma list, trimmed, empty ones dropped. */
export const splitList = (text: string): string[] =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A list field as it arrives: a comma string or an array of strings. */
export function listOf(value: unknown, name: string): string[] {
  if (typeof value === "string") return splitList(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return splitList(value.join(","));
  return refuse(`${name} must be a comma-separated string or an array of strings`);
}

/** Refuses a list naming something twice, with `message` followed by the repeated entries. */
export function refuseRepeats(entries: string[], message: string): string[] {
  const seen = new Set<string>();
  const repeated = new Set(entries.filter((e) => seen.has(e) || !seen.add(e)));
  return repeated.size ? refuse(`${message}: ${[...repeated].join(", ")}`) : entries;
}

/** At most this many channels per batch (keys of a batch create, ids of a batch action). */
export const BATCH_MAX = 1000;

/** The ids of a batch action, without repeats; `emptyMessage` when there are none. */
export function idListOf(value: unknown, emptyMessage: string): number[] {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) refuse(emptyMessage);
  if (!Array.isArray(value)) refuse("ids must be an array of channel ids");
  const ids = [...new Set((value as unknown[]).map((id) => idOf(id)))];
  return ids.length > BATCH_MAX ? refuse(`at most ${BATCH_MAX} channels at once`) : ids;
}
