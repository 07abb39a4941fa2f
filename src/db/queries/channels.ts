import { sql, type SelectQueryBuilder } from "kysely";
import type { Exec } from "../exec";
import { insertReturningId } from "../exec";
import type { ChannelPatch, ChannelRow, NewChannelRow, Tables } from "../schema";
import { containsText } from "./like";

/** A row as read, its key decrypted (the database holds it sealed; see Exec.secrets). */
export const openedChannel = (db: Exec, row: ChannelRow): ChannelRow =>
  db.secrets ? { ...row, key: db.secrets.open(row.key) } : row;

const opened = (db: Exec, rows: ChannelRow[]): ChannelRow[] => rows.map((row) => openedChannel(db, row));

/** The values to write, the key sealed. */
export function sealedValues<T extends { key?: string }>(db: Exec, values: T): T {
  return db.secrets && typeof values.key === "string" ? { ...values, key: db.secrets.seal(values.key) } : values;
}

export async function findChannel(db: Exec, id: number): Promise<ChannelRow | undefined> {
  const row = await db.k.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
  return row && openedChannel(db, row);
}

export async function findChannels(db: Exec, ids: number[]): Promise<ChannelRow[]> {
  if (ids.length === 0) return [];
  return opened(db, await db.k.selectFrom("channels").selectAll().where("id", "in", ids).orderBy("id").execute());
}

export async function allChannels(db: Exec): Promise<ChannelRow[]> {
  return opened(db, await db.k.selectFrom("channels").selectAll().orderBy("id").execute());
}

export async function channelIdsWithTag(db: Exec, tag: string): Promise<number[]> {
  const rows = await db.k.selectFrom("channels").select("id").where("tag", "=", tag).orderBy("id").execute();
  return rows.map((r) => r.id);
}

export async function channelIdsWithStatus(db: Exec, statuses: number[]): Promise<number[]> {
  const rows = await db.k.selectFrom("channels").select("id").where("status", "in", statuses).orderBy("id").execute();
  return rows.map((r) => r.id);
}

export async function channelsWithStatus(db: Exec, status: number): Promise<ChannelRow[]> {
  return opened(db, await db.k.selectFrom("channels").selectAll().where("status", "=", status).orderBy("id").execute());
}

/** Ids among `ids` that name a stored channel. */
export async function existingChannelIds(db: Exec, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.k.selectFrom("channels").select("id").where("id", "in", ids).orderBy("id").execute();
  return rows.map((r) => r.id);
}

export async function channelModelLists(db: Exec): Promise<{ type: number; models: string }[]> {
  return db.k.selectFrom("channels").select(["type", "models"]).execute();
}

export const insertChannel = (db: Exec, row: NewChannelRow): Promise<number> =>
  insertReturningId(db, "channels", sealedValues(db, row));

export async function updateChannels(db: Exec, ids: number[], patch: ChannelPatch): Promise<void> {
  if (ids.length === 0 || Object.keys(patch).length === 0) return;
  await db.k.updateTable("channels").set(sealedValues(db, patch)).where("id", "in", ids).execute();
}

/** Channels whose whole key is `key`: sealed keys differ on every write, so they are compared decrypted. */
async function channelIdsWithKey(db: Exec, key: string): Promise<number[]> {
  if (!db.secrets)
    return (await db.k.selectFrom("channels").select("id").where("key", "=", key).execute()).map((r) => r.id);
  const rows = await db.k.selectFrom("channels").select(["id", "key"]).execute();
  return rows.filter((row) => db.secrets!.open(row.key) === key).map((row) => row.id);
}

export async function deleteChannels(db: Exec, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.k.deleteFrom("channels").where("id", "in", ids).execute();
}

export interface ChannelFilter {
  /** Id (exact), name or tag (contained), or the whole key (exact, so search cannot guess keys). */
  keyword?: string;
  /** A group the channel serves. */
  group?: string;
  /** Contained in the channel's model list. */
  model?: string;
}

export interface ChannelPageQuery extends ChannelFilter {
  /** Newest id first; otherwise highest priority first, then newest id. */
  idSort: boolean;
  offset: number;
  limit: number;
}

type ChannelSelect = SelectQueryBuilder<Tables, "channels", Record<never, never>>;

/** `keyIds`: the channels whose whole key is the keyword (channelIdsWithKey). */
function filtered(db: Exec, filter: ChannelFilter, keyIds: number[]): ChannelSelect {
  let base = db.k.selectFrom("channels");
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const asId = /^\d+$/.test(keyword) ? Number(keyword) : -1;
    base = base.where((eb) =>
      eb.or([
        eb("id", "=", asId),
        containsText("name", keyword),
        containsText("tag", keyword),
        eb("id", "in", [-1, ...keyIds]),
      ]),
    );
  }
  const group = filter.group?.trim();
  if (group) {
    base = base.where((eb) =>
      eb("id", "in", eb.selectFrom("abilities").select("channel_id").where("group", "=", group)),
    );
  }
  const model = filter.model?.trim();
  if (model) base = base.where(containsText("models", model));
  return base;
}

const sorted = (query: ChannelSelect, idSort: boolean) =>
  (idSort ? query.selectAll() : query.selectAll().orderBy("priority", "desc")).orderBy("id", "desc");

const keyIdsOf = async (db: Exec, filter: ChannelFilter): Promise<number[]> =>
  filter.keyword?.trim() ? channelIdsWithKey(db, filter.keyword.trim()) : [];

/** A page of channels that match, and how many match in all. */
export async function pageChannels(db: Exec, query: ChannelPageQuery): Promise<{ rows: ChannelRow[]; total: number }> {
  const base = filtered(db, query, await keyIdsOf(db, query));
  const rows = await sorted(base, query.idSort).limit(query.limit).offset(query.offset).execute();
  const count = await base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return { rows: opened(db, rows), total: Number(count.n) };
}

/**
 * Tag mode: a page of rows, each either all matching channels sharing a tag or one untagged channel,
 * with their channels (sorted as in `pageChannels`), and how many rows match in all.
 */
export async function pageChannelRows(
  db: Exec,
  query: ChannelPageQuery,
): Promise<{ rows: { tag: string; channels: ChannelRow[] }[]; total: number }> {
  const untaggedId = sql<number>`CASE WHEN ${sql.ref("tag")} = '' THEN ${sql.ref("id")} ELSE 0 END`;
  const keyIds = await keyIdsOf(db, query);
  const grouped = filtered(db, query, keyIds)
    .select((eb) => [
      "tag",
      untaggedId.as("untagged_id"),
      eb.fn.max("id").as("last_id"),
      eb.fn.max("priority").as("top"),
    ])
    .groupBy(["tag", untaggedId]);
  const ordered = query.idSort ? grouped : grouped.orderBy("top", "desc");
  const keys = (await ordered.orderBy("last_id", "desc").limit(query.limit).offset(query.offset).execute()).map(
    (k) => ({
      tag: k.tag,
      id: Number(k.untagged_id),
    }),
  );
  const count = await db.k
    .selectFrom(grouped.as("r"))
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(count.n);
  if (keys.length === 0) return { rows: [], total };
  const tags = keys.filter((k) => k.tag !== "").map((k) => k.tag);
  const ids = keys.filter((k) => k.tag === "").map((k) => k.id);
  const members = opened(
    db,
    await sorted(filtered(db, query, keyIds), query.idSort)
      .where((eb) =>
        eb.or([...(tags.length ? [eb("tag", "in", tags)] : []), ...(ids.length ? [eb("id", "in", ids)] : [])]),
      )
      .execute(),
  );
  const belongs = (k: { tag: string; id: number }, c: ChannelRow) => (k.tag === "" ? c.id === k.id : c.tag === k.tag);
  return { rows: keys.map((k) => ({ tag: k.tag, channels: members.filter((c) => belongs(k, c)) })), total };
}
