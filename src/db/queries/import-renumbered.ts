import type { Exec } from "../exec";
import { type ImportTable, whereIdsIn } from "./imports";

/** The ids imported rows of `sourceIds` were given in Tollgate because their own were taken, by source id. */
export async function renumberedIds(db: Exec, table: ImportTable, sourceIds: number[]): Promise<Map<number, number[]>> {
  const moved = new Map<number, number[]>();
  if (sourceIds.length === 0) return moved;
  const wanted = new Set(sourceIds);
  const rows = await whereIdsIn(
    db.k.selectFrom("import_renumbered").select(["source_id", "target_id"]).where("table_name", "=", table),
    "source_id",
    sourceIds,
  ).execute();
  for (const row of rows) {
    const id = Number(row.source_id);
    if (!wanted.has(id)) continue;
    moved.set(id, [...(moved.get(id) ?? []), Number(row.target_id)]);
  }
  return moved;
}

/** Remembers where renumbered rows went, in the transaction that inserts them. */
export async function recordRenumbered(db: Exec, table: ImportTable, moves: [number, number][]): Promise<void> {
  if (moves.length === 0) return;
  await db.k
    .insertInto("import_renumbered")
    .values(moves.map(([source_id, target_id]) => ({ table_name: table, source_id, target_id })))
    .execute();
}
