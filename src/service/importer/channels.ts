import type { SourceRow } from "../../db/foreign/source";
import type { ChannelRow } from "../../db/schema";
import { IdAllocator, matchedItem, type PlanItem } from "./plan";
import { loose, num, text } from "./values";

/** Columns Tollgate fills itself or that mean nothing outside the old gateway. */
const NOT_COPIED = new Set(["id"]);

/** A multi-key channel's keys one per line, as Tollgate keeps them (new-api may hold a JSON array). */
export function keyLines(key: string): string {
  const trimmed = key.trim();
  if (trimmed.startsWith("[")) {
    try {
      const list = JSON.parse(trimmed);
      if (Array.isArray(list)) return list.map((k) => (typeof k === "string" ? k : JSON.stringify(k))).join("\n");
    } catch {
      // a key that merely starts with "[" stays as it is
    }
  }
  return trimmed;
}

/** Every column the target has (so overrides arrive once Tollgate has them), the rest listed as not carried. */
function desiredChannel(row: SourceRow, columns: Set<string>, dropped: Set<string>): Record<string, unknown> {
  const desired: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    const name = column.toLowerCase();
    if (NOT_COPIED.has(name)) continue;
    if (!columns.has(name)) {
      if (value !== null && value !== undefined && value !== "" && value !== "{}" && value !== 0) dropped.add(name);
      continue;
    }
    if (value === null || value === undefined) continue;
    desired[name] = loose(value);
  }
  desired.key = keyLines(text(row, "key"));
  desired.name = text(row, "name") || `channel ${num(row, "id")}`;
  return desired;
}

/**
 * Channels matched by id when the name and type agree, else by name and type; `dropped` collects source
 * columns with values that Tollgate has no column for.
 */
export function planChannels(
  source: SourceRow[],
  target: ChannelRow[],
  columns: Set<string>,
  dropped: Set<string>,
): PlanItem[] {
  const ids = new IdAllocator(
    target.map((c) => c.id),
    source.map((r) => num(r, "id")),
  );
  const sameKind = (c: ChannelRow, row: SourceRow) => c.name === text(row, "name") && c.type === num(row, "type");
  return source.map((row) => {
    const sourceId = num(row, "id");
    const existing = target.find((c) => c.id === sourceId && sameKind(c, row)) ?? target.find((c) => sameKind(c, row));
    const desired = desiredChannel(row, columns, dropped);
    return matchedItem("channel", String(desired.name), sourceId, desired, {
      id: existing?.id ?? ids.take(sourceId),
      row: existing as unknown as Record<string, unknown> | undefined,
    });
  });
}
