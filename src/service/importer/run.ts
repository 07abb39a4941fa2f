import { inTransaction, type Exec } from "../../db/exec";
import {
  countRows,
  openSource,
  SourceError,
  readTable,
  sourceTables,
  type SourceDb,
  type SourceRow,
} from "../../db/foreign/source";
import { allChannels } from "../../db/queries/channels";
import {
  allRows,
  type ImportTable,
  insertWithIds,
  quotaTotals,
  tableColumns,
  updateById,
} from "../../db/queries/imports";
import type { OptionKey } from "../../shared/option-keys";
import { rewriteAbilities } from "../channels/abilities";
import type { ServiceContext } from "../context";
import { keyedHash } from "../crypto";
import { refuse, ServiceError } from "../errors";
import { planChannels } from "./channels";
import { planOptions } from "./options";
import type { ImportKind, PlanItem } from "./plan";
import { planRecords, REDEMPTIONS, TOP_UPS } from "./records";
import { LOG_STREAM, MIDJOURNEY_STREAM, type StreamResult, streamTable, TASK_STREAM } from "./stream";
import { planTokens } from "./tokens";
import { droppedUserColumns, type IdMap, planUsers } from "./users";

export const PRODUCTS = ["one-api", "new-api"] as const;
export type Product = (typeof PRODUCTS)[number];
export const SECTIONS = ["users", "tokens", "channels", "options", "redemptions", "topups", "logs", "tasks"] as const;
export type Section = (typeof SECTIONS)[number];

export interface ImportRequest {
  from: Product;
  dsn: string;
  dryRun: boolean;
  /** Sections to carry; logs and tasks only with `withLogs`. */
  only: ReadonlySet<Section>;
  withLogs: boolean;
  /** Unix seconds: logs and tasks from then on. */
  since?: number;
  /** After each batch of a streamed table: rows read so far, of how many, and the batch's size. */
  onProgress?: (label: string, done: number, total: number, batch: number) => void;
}

export interface ImportReport {
  from: Product;
  /** What the source looks like (new-api has tables one-api lacks). */
  detected: Product;
  items: PlanItem[];
  /** What the source holds that Tollgate does not keep, with why. */
  notCarried: string[];
  /**
   * Balance of the users whose balance this run carries (new ones; users imported before keep what Tollgate
   * made of it): in the source, and in Tollgate after (equal, or nothing is written).
   */
  balance: { source: number; sourceUsed: number; after?: number; afterUsed?: number };
  streams: StreamResult[];
  written: boolean;
}

const REQUIRED_TABLES = ["users", "tokens", "channels", "options"];
const REQUIRED_USER_COLUMNS = ["username", "password", "quota", "role"];

function checkProduct(tables: Map<string, Set<string>>): Product {
  const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
  const userColumns = tables.get("users");
  const missingColumns = REQUIRED_USER_COLUMNS.filter((c) => !userColumns?.has(c));
  if (missing.length > 0 || missingColumns.length > 0)
    refuse(
      `the source is not a one-api or new-api database: ${
        missing.length > 0 ? `no table ${missing.join(", ")}` : `users has no column ${missingColumns.join(", ")}`
      }`,
    );
  const newApiSigns = ["vendors", "prefill_groups", "two_fas", "passkey_credentials"];
  return newApiSigns.some((t) => tables.has(t)) || userColumns!.has("linux_do_id") ? "new-api" : "one-api";
}

async function openChecked(dsn: string): Promise<SourceDb> {
  try {
    return await openSource(dsn);
  } catch (error) {
    return refuse(error instanceof SourceError ? error.message : `cannot open the source: ${(error as Error).message}`);
  }
}

/** Source tables the import reads, or that only the old gateway's own machinery needs. */
const HANDLED = new Set([
  ...["users", "tokens", "channels", "options", "redemptions", "top_ups", "logs", "tasks", "midjourneys"],
  ...["abilities", "setups", "quota_data", "perf_metrics"],
]);

/** Tables with rows that Tollgate does not keep (passkeys, two-factor secrets, subscriptions, …), with counts. */
async function tablesNotCarried(src: SourceDb, tables: Map<string, Set<string>>): Promise<string[]> {
  const listed: string[] = [];
  for (const table of tables.keys()) {
    if (HANDLED.has(table)) continue;
    const rows = await countRows(src, table);
    if (rows > 0) listed.push(`${table} (${rows} rows)`);
  }
  return listed;
}

const wanted = (request: ImportRequest, section: Section) => request.only.has(section);

async function readIf(
  src: SourceDb,
  tables: Map<string, Set<string>>,
  table: string,
  on: boolean,
): Promise<SourceRow[]> {
  return on && tables.has(table) ? readTable(src, table) : [];
}

/** Where each kind's creates and updates go, in the order references need (users before what they own). */
const TABLE_OF: [ImportKind, ImportTable][] = [
  ["user", "users"],
  ["channel", "channels"],
  ["token", "tokens"],
  ["redemption", "redemptions"],
  ["top-up", "top_ups"],
];

async function write(tx: Exec, items: PlanItem[]): Promise<void> {
  for (const [kind, table] of TABLE_OF) {
    const mine = items.filter((i) => i.kind === kind);
    await insertWithIds(
      tx,
      table,
      mine.filter((i) => i.action === "create").map((i) => i.values!),
    );
    for (const update of mine.filter((i) => i.action === "update"))
      await updateById(tx, table, update.targetId!, update.values!);
  }
}

/** Users Tollgate has already (when users are not imported this run, only rows of those can be). */
const alreadyThere = (items: PlanItem[]): IdMap =>
  new Map(
    items.filter((i) => i.action === "unchanged" || i.action === "update").map((i) => [i.sourceId!, i.targetId!]),
  );

const targetIdsOf = (items: PlanItem[], kind: ImportKind): IdMap =>
  new Map(items.filter((i) => i.kind === kind && i.targetId !== undefined).map((i) => [i.sourceId!, i.targetId!]));

function tellCaches(ctx: ServiceContext, items: PlanItem[]): void {
  const changed = items.filter((i) => i.action === "create" || i.action === "update");
  for (const i of changed.filter((c) => c.kind === "user")) ctx.users.forget(i.targetId!);
  if (changed.some((c) => c.kind === "token")) ctx.changes.emit("tokens");
  if (changed.some((c) => c.kind === "channel")) ctx.changes.emit("channels");
}

/** Users, channels, tokens, options, codes and top-ups in ONE transaction that also proves the balance unchanged. */
async function writeAll(
  ctx: ServiceContext,
  items: PlanItem[],
  options: Map<OptionKey, string>,
  request: ImportRequest,
  importedUsers: number[],
  balance: ImportReport["balance"],
): Promise<void> {
  try {
    await inTransaction(ctx.db, async (tx) => {
      await write(tx, items);
      await ctx.options.writeIn(tx, options);
      const channelIds = items.filter((i) => i.kind === "channel" && i.action !== "skip").map((i) => i.targetId!);
      await rewriteAbilities(tx, channelIds);
      const after = wanted(request, "users") ? await quotaTotals(tx, importedUsers) : undefined;
      if (after && (after.quota !== balance.source || after.used !== balance.sourceUsed))
        refuse(`balance total would change (${balance.source} → ${after.quota}): nothing imported`);
      balance.after = after?.quota;
      balance.afterUsed = after?.used;
    });
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    refuse(`nothing imported, the database is as it was: ${(error as Error).message}`);
  }
}

/** Logs, tasks and Midjourney records, batch by batch (on a dry run: counted, not written). */
async function streamAll(
  ctx: ServiceContext,
  src: SourceDb,
  tables: Map<string, Set<string>>,
  items: PlanItem[],
  userIds: IdMap,
  request: ImportRequest,
): Promise<StreamResult[]> {
  const maps = { user_id: userIds, token_id: targetIdsOf(items, "token"), channel_id: targetIdsOf(items, "channel") };
  const results: StreamResult[] = [];
  for (const [section, spec] of [
    ["logs", LOG_STREAM],
    ["tasks", TASK_STREAM],
    ["tasks", MIDJOURNEY_STREAM],
  ] as const) {
    if (!wanted(request, section) || !tables.has(spec.table)) continue;
    results.push(
      await streamTable(ctx, src, spec, maps, {
        since: request.since,
        dryRun: request.dryRun,
        onProgress: (done, total, batch) => request.onProgress?.(spec.table, done, total, batch),
      }),
    );
  }
  return results;
}

/**
 * Imports another gateway's database: reads it, plans every row (create / update / unchanged / skip /
 * conflict), refuses on any conflict, then writes users, channels, tokens, options, codes and top-ups in ONE
 * transaction that also proves the balance total unchanged; logs and tasks follow in batches when asked (a dry
 * run plans them too).
 */
export async function importDatabase(ctx: ServiceContext, request: ImportRequest): Promise<ImportReport> {
  const src = await openChecked(request.dsn);
  try {
    const tables = await sourceTables(src);
    const detected = checkProduct(tables);
    const users = await readIf(src, tables, "users", true);
    const {
      items: userItems,
      ids: plannedIds,
      balanceCarried,
    } = planUsers(users, await allRows(ctx.db, "users"), (token) => keyedHash(ctx.secret, token));
    const userIds = wanted(request, "users") ? plannedIds : alreadyThere(userItems);
    const conflicts = userItems.filter((i) => i.action === "conflict");
    if (conflicts.length > 0)
      refuse(
        `nothing imported: ${conflicts.length} user(s) conflict with Tollgate's: ${conflicts
          .map((c) => `${c.name} (${c.reason})`)
          .join("; ")}`,
      );
    const items: PlanItem[] = wanted(request, "users") ? [...userItems] : [];
    const notCarried: string[] = [];
    const droppedUsers = wanted(request, "users") ? droppedUserColumns(users) : [];
    if (droppedUsers.length > 0) notCarried.push(`user columns Tollgate has no place for: ${droppedUsers.join(", ")}`);
    const others = await tablesNotCarried(src, tables);
    if (others.length > 0) notCarried.push(`tables: ${others.join(", ")}`);
    if (wanted(request, "tokens"))
      items.push(
        ...planTokens(ctx, await readIf(src, tables, "tokens", true), await allRows(ctx.db, "tokens"), userIds),
      );
    if (wanted(request, "channels")) {
      const dropped = new Set<string>();
      items.push(
        ...planChannels(
          await readIf(src, tables, "channels", true),
          await allChannels(ctx.db),
          await tableColumns(ctx.db, "channels"),
          dropped,
        ),
      );
      if (dropped.size > 0) notCarried.push(`channel columns Tollgate does not have yet: ${[...dropped].join(", ")}`);
    }
    const options = wanted(request, "options")
      ? planOptions(ctx, await readIf(src, tables, "options", true))
      : { items: [], values: new Map() };
    items.push(...options.items);
    for (const [section, spec, table] of [
      ["redemptions", REDEMPTIONS, "redemptions"],
      ["topups", TOP_UPS, "top_ups"],
    ] as const) {
      if (!wanted(request, section)) continue;
      const rows = await readIf(src, tables, table, true);
      items.push(
        ...planRecords(
          spec,
          rows,
          (await allRows(ctx.db, table)) as Record<string, unknown>[],
          await tableColumns(ctx.db, table),
          userIds,
        ),
      );
    }
    const skippedOptions = options.items.filter((i) => i.action === "skip");
    if (skippedOptions.length > 0)
      notCarried.push(`options: ${skippedOptions.map((i) => `${i.name} (${i.reason})`).join("; ")}`);
    const carried = wanted(request, "users") ? users.filter((u) => balanceCarried.has(Number(u.id))) : [];
    const importedUsers = carried.map((u) => plannedIds.get(Number(u.id))!);
    const balance: ImportReport["balance"] = {
      source: carried.reduce((sum, u) => sum + Number(u.quota ?? 0), 0),
      sourceUsed: carried.reduce((sum, u) => sum + Number(u.used_quota ?? 0), 0),
    };
    const report: ImportReport = {
      from: request.from,
      detected,
      items,
      notCarried,
      balance,
      streams: [],
      written: false,
    };
    if (!request.dryRun) {
      await writeAll(ctx, items, options.values, request, importedUsers, balance);
      report.written = true;
      ctx.options.remembered(options.values);
      tellCaches(ctx, items);
    }
    if (request.withLogs) report.streams = await streamAll(ctx, src, tables, items, userIds, request);
    return report;
  } finally {
    await src.close();
  }
}
