import { inTransaction } from "../../db/exec";
import { recordRenumbered, renumberedIds } from "../../db/queries/import-renumbered";
import { countRows, maxSourceId, readBatch, type SourceDb } from "../../db/foreign/source";
import { type ImportTable, insertWithIds, maxId, rowsByIds, tableColumns } from "../../db/queries/imports";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
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
  /** Rows of the source table, and of those the ones older than `--since` (not read). */
  total: number;
  beforeSince: number;
  read: number;
  /** Inserted (on a dry run: that would be). */
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

export interface StreamOptions {
  since?: number;
  dryRun: boolean;
  /** After each batch: rows read so far, of how many, and the size of the batch just handled. */
  onProgress?: (done: number, total: number, batch: number) => void;
}

/**
 * Copies (or on a dry run, plans) a large table batch by batch. A row is already there when Tollgate holds it
 * under its source id or under the id it was renumbered to (import_renumbered), with the same identity columns.
 * Each batch is one transaction (its rows and where renumbered ones went), so a failure keeps the batches
 * before it and the next run carries on from there without repeating a row.
 */
export async function streamTable(
  ctx: ServiceContext,
  src: SourceDb,
  spec: StreamSpec,
  maps: ColumnMaps,
  options: StreamOptions,
): Promise<StreamResult> {
  const started = performance.now();
  const since = options.since === undefined ? undefined : { column: spec.timeColumn, at: options.since };
  const total = await countRows(src, spec.table);
  const inWindow = since ? await countRows(src, spec.table, since) : total;
  const columns = await tableColumns(ctx.db, spec.table);
  const ids = new IdAllocator([], [await maxId(ctx.db, spec.table), await maxSourceId(src, spec.table)]);
  const result: StreamResult = {
    table: spec.table,
    total,
    beforeSince: total - inWindow,
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
    const sourceIds = batch.map((r) => Number(r.id));
    const moved = await renumberedIds(ctx.db, spec.table, sourceIds);
    const present = new Map<number, Record<string, unknown>>();
    for (const ids of [sourceIds, [...moved.values()].flat()])
      for (const r of await rowsByIds(ctx.db, spec.table, ids, spec.identity)) present.set(Number(r.id), r);
    const rows: Record<string, unknown>[] = [];
    const moves: [number, number][] = [];
    for (const row of batch) {
      const desired = desiredRecord(row, columns, maps);
      if (!desired) {
        result.skipped++;
        continue;
      }
      const sourceId = Number(row.id);
      const homes = [sourceId, ...(moved.get(sourceId) ?? [])];
      if (homes.some((id) => present.has(id) && sameRow(present.get(id)!, desired, spec.identity))) {
        result.alreadyThere++;
        continue;
      }
      const id = present.has(sourceId) ? ids.take(0) : sourceId;
      if (id !== sourceId) moves.push([sourceId, id]);
      rows.push({ ...desired, id });
    }
    if (!options.dryRun && rows.length > 0) await writeBatch(ctx, spec.table, rows, moves, result);
    result.imported += rows.length;
    result.renumbered += moves.length;
    options.onProgress?.(result.read, inWindow, batch.length);
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

async function writeBatch(
  ctx: ServiceContext,
  table: ImportTable,
  rows: Record<string, unknown>[],
  moves: [number, number][],
  result: StreamResult,
): Promise<void> {
  try {
    await inTransaction(ctx.db, async (tx) => {
      await insertWithIds(tx, table, rows);
      await recordRenumbered(tx, table, moves);
    });
  } catch (error) {
    refuse(
      `${table}: stopped after ${result.imported} rows were imported (${(error as Error).message}); they and everything imported before them stay, and the same import run again carries the rest without repeating a row`,
    );
  }
}
