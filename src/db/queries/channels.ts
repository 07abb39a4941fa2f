import { sql, type SelectQueryBuilder } from "kysely";
import type { Exec } from "../exec";
import { insertReturningId } from "../exec";
import type { ChannelPatch, ChannelRow, NewChannelRow, Tables } from "../schema";
import { containsText } from "./like";

export async function findChannel(db: Exec, id: number): Promise<ChannelRow | undefined> {
  return db.k.selectFrom("channels").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findChannels(db: Exec, ids: number[]): Promise<ChannelRow[]> {
  if (ids.length === 0) return [];
  return db.k.selectFrom("channels").selectAll().where("id", "in", ids).orderBy("id").execute();
}

export async function allChannels(db: Exec): Promise<ChannelRow[]> {
  return db.k.selectFrom("channels").selectAll().orderBy("id").execute();
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
  return db.k.selectFrom("channels").selectAll().where("status", "=", status).orderBy("id").execute();
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

export const insertChannel = (db: Exec, row: NewChannelRow): Promise<number> => insertReturningId(db, "channels", row);

export async function updateChannels(db: Exec, ids: number[], patch: ChannelPatch): Promise<void> {
  if (ids.length === 0 || Object.keys(patch).length === 0) return;
  await db.k.updateTable("channels").set(patch).where("id", "in", ids).execute();
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

type ChannelSelect = SelectQueryBuilder<Tables, "channels", {}>;

function filtered(db: Exec, filter: ChannelFilter): ChannelSelect {
  let base = db.k.selectFrom("channels");
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const asId = /^\d+$/.test(keyword) ? Number(keyword) : -1;
    base = base.where((eb) =>
      eb.or([eb("id", "=", asId), containsText("name", keyword), containsText("tag", keyword), eb("key", "=", keyword)]),
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

/** A page of channels that match, and how many match in all. */
export async function pageChannels(db: Exec, query: ChannelPageQuery): Promise<{ rows: ChannelRow[]; total: number }> {
  const base = filtered(db, query);
  const rows = await sorted(base, query.idSort).limit(query.limit).offset(query.offset).execute();
  const count = await base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
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
  const grouped = filtered(db, query)
    .select((eb) => ["tag", untaggedId.as("untagged_id"), eb.fn.max("id").as("last_id"), eb.fn.max("priority").as("top")])
    .groupBy(["tag", untaggedId]);
  const ordered = query.idSort ? grouped : grouped.orderBy("top", "desc");
  const keys = (await ordered.orderBy("last_id", "desc").limit(query.limit).offset(query.offset).execute()).map((k) => ({
    tag: k.tag,
    id: Number(k.untagged_id),
  }));
  const count = await db.k.selectFrom(grouped.as("r")).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const total = Number(count.n);
  if (keys.length === 0) return { rows: [], total };
  const tags = keys.filter((k) => k.tag !== "").map((k) => k.tag);
  const ids = keys.filter((k) => k.tag === "").map((k) => k.id);
  const members = await sorted(filtered(db, query), query.idSort)
    .where((eb) => eb.or([...(tags.length ? [eb("tag", "in", tags)] : []), ...(ids.length ? [eb("id", "in", ids)] : [])]))
    .execute();
  const belongs = (k: { tag: string; id: number }, c: ChannelRow) => (k.tag === "" ? c.id === k.id : c.tag === k.tag);
  return { rows: keys.map((k) => ({ tag: k.tag, channels: members.filter((c) => belongs(k, c)) })), total };
}
