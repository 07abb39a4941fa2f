import type { SourceRow } from "../../db/foreign/source";
import { IdAllocator, item, matchedItem, type ImportKind, type PlanItem } from "./plan";
import type { IdMap } from "./users";
import { loose, num, text } from "./values";

/** A table copied column by column: matched on a natural key, its user columns mapped to Tollgate's user ids. */
export interface RecordSpec {
  kind: ImportKind;
  /** The column that identifies a row on both sides (a redemption's key, a top-up's trade number). */
  naturalKey: string;
  userColumns: readonly string[];
}

export const REDEMPTIONS: RecordSpec = {
  kind: "redemption",
  naturalKey: "key",
  userColumns: ["user_id", "used_user_id"],
};
export const TOP_UPS: RecordSpec = { kind: "top-up", naturalKey: "trade_no", userColumns: ["user_id"] };

/** Source ids → Tollgate ids per column holding one (user_id, token_id, channel_id, …). */
export type ColumnMaps = Record<string, IdMap>;

/**
 * The row in the target's columns, ids mapped; undefined when its owner (user_id) was not imported, other
 * references to rows not imported become 0.
 */
export function desiredRecord(
  row: SourceRow,
  columns: Set<string>,
  maps: ColumnMaps,
): Record<string, unknown> | undefined {
  const desired: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    const name = column.toLowerCase();
    if (name === "id" || !columns.has(name) || value === null || value === undefined) continue;
    desired[name] = loose(value);
  }
  for (const [column, map] of Object.entries(maps)) {
    if (!(column in desired)) continue;
    const sourceId = Number(desired[column]);
    const mapped = map.get(sourceId);
    if (column === "user_id" && sourceId !== 0 && mapped === undefined) return undefined;
    desired[column] = mapped ?? 0;
  }
  return desired;
}

export function planRecords(
  spec: RecordSpec,
  source: SourceRow[],
  target: Record<string, unknown>[],
  columns: Set<string>,
  users: IdMap,
): PlanItem[] {
  const byNatural = new Map(target.map((r) => [String(r[spec.naturalKey]), r]));
  const ids = new IdAllocator(
    target.map((r) => Number(r.id)),
    source.map((r) => num(r, "id")),
  );
  return source.map((row) => {
    const sourceId = num(row, "id");
    const natural = text(row, spec.naturalKey);
    const name = `${natural.slice(0, 8)}…`;
    const desired = desiredRecord(row, columns, Object.fromEntries(spec.userColumns.map((c) => [c, users])));
    if (!desired) return item(spec.kind, name, "skip", { sourceId, reason: "its user was not imported" });
    const existing = byNatural.get(natural);
    return matchedItem(spec.kind, name, sourceId, desired, {
      id: existing ? Number(existing.id) : ids.take(sourceId),
      row: existing,
    });
  });
}
