import { inTransaction } from "../../db/exec";
import { countRows, maxSourceId, readBatch, type SourceDb } from "../../db/foreign/source";
import { type ImportTable, insertWithIds, maxId, rowsByIds, tableColumns } from "../../db/queries/imports";
import type { ServiceContext } from "../context";
import { IdAllocator } from "./plan";
import { type ColumnMaps, desiredRecord } from "./records";

/** A large table copied in batches (logs, tasks): each batch is one transaction, so memory stays flat. */
export interface StreamSpec {
  table: ImportTable;
  /** Columns that, with the id, recognise a row imported before (so a second run adds nothing). */
  identity: readonly string[];
  /** The column `--since` bounds. */
  timeColumn: string;
}

export const LOG_STREAM: StreamSpec = {
  table: "logs",
  identity: ["created_at", "user_id", "type"],
  timeColumn: "created_at",
};
export const MIDJOURNEY_STREAM: StreamSpec = {
  table: "midjourneys",
  identity: ["mj_id", "user_id"],
  timeColumn: "submit_time",
};
export const TASK_STREAM: StreamSpec = { table: "tasks", identity: ["task_id", "user_id"], timeColumn: "submit_time" };

export interface StreamResult {
  table: string;
  read: number;
  imported: number;
  alreadyThere: number;
  skipped: number;
  /** Ids that were taken in Tollgate, so the row got another one. */
  renumbered: number;
  seconds: number;
}

export const BATCH_ROWS = 2000;

const sameRow = (a: Record<string, unknown>, b: Record<string, unknown>, columns: readonly string[]) =>
  columns.every((c) => String(a[c] ?? "") === String(b[c] ?? ""));

export async function streamTable(
  ctx: ServiceContext,
  src: SourceDb,
  spec: StreamSpec,
  maps: ColumnMaps,
  options: { since?: number; dryRun: boolean; onProgress?: (done: number, total: number) => void },
): Promise<StreamResult> {
  const started = performance.now();
  const since = options.since === undefined ? undefined : { column: spec.timeColumn, at: options.since };
  const total = await countRows(src, spec.table, since);
  const columns = await tableColumns(ctx.db, spec.table);
  const ids = new IdAllocator([], [await maxId(ctx.db, spec.table), await maxSourceId(src, spec.table)]);
  const result: StreamResult = {
    table: spec.table,
    read: 0,
    imported: 0,
    alreadyThere: 0,
    skipped: 0,
    renumbered: 0,
    seconds: 0,
  };
  let afterId = 0;
  for (;;) {
    const batch = await readBatch(src, spec.table, afterId, BATCH_ROWS, since);
    if (batch.length === 0) break;
    afterId = Number(batch.at(-1)!.id);
    result.read += batch.length;
    const present = new Map(
      (
        await rowsByIds(
          ctx.db,
          spec.table,
          batch.map((r) => Number(r.id)),
          spec.identity,
        )
      ).map((r) => [Number(r.id), r]),
    );
    const rows: Record<string, unknown>[] = [];
    for (const row of batch) {
      const desired = desiredRecord(row, columns, maps);
      if (!desired) {
        result.skipped++;
        continue;
      }
      const sourceId = Number(row.id);
      const there = present.get(sourceId);
      if (there && sameRow(there, desired, spec.identity)) {
        result.alreadyThere++;
        continue;
      }
      const id = there ? ids.take(0) : sourceId;
      if (there) result.renumbered++;
      rows.push({ ...desired, id });
    }
    if (!options.dryRun && rows.length > 0) await inTransaction(ctx.db, (tx) => insertWithIds(tx, spec.table, rows));
    result.imported += rows.length;
    options.onProgress?.(result.read, total);
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}
