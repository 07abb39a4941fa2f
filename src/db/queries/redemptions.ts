import type { Insertable } from "kysely";
import type { Exec } from "../exec";
import { affected } from "../exec";
import { containsText } from "./like";
import type { RedemptionRow, RedemptionsTable } from "../schema";

type RedemptionPatch = Partial<Pick<RedemptionRow, "name" | "quota" | "expired_time" | "status">>;

const liveRedemptions = (db: Exec) => db.k.selectFrom("redemptions").where("deleted_at", "is", null);

/** All rows in one statement: a batch is created whole or not at all. */
export async function insertRedemptions(db: Exec, rows: Insertable<RedemptionsTable>[]): Promise<void> {
  await db.k.insertInto("redemptions").values(rows).execute();
}

export function findLiveRedemption(db: Exec, id: number): Promise<RedemptionRow | undefined> {
  return liveRedemptions(db).selectAll().where("id", "=", id).executeTakeFirst();
}

export function findLiveRedemptionByKey(db: Exec, key: string): Promise<RedemptionRow | undefined> {
  return liveRedemptions(db).selectAll().where("key", "=", key).executeTakeFirst();
}

export interface RedemptionQuery {
  /** The id, or part of the name. */
  keyword?: string;
  offset: number;
  limit: number;
}

/** A page of live codes, newest first, and the total that match. */
export async function pageRedemptions(
  db: Exec,
  query: RedemptionQuery,
): Promise<{ rows: RedemptionRow[]; total: number }> {
  let base = liveRedemptions(db);
  const keyword = query.keyword;
  if (keyword) {
    const asId = /^\d+$/.test(keyword) ? Number(keyword) : -1;
    base = base.where((eb) => eb.or([eb("id", "=", asId), containsText("name", keyword)]));
  }
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy("id", "desc").limit(query.limit).offset(query.offset).execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Changes a live code only while its status is one of `statuses`; answers whether it did. */
export async function updateLiveRedemption(
  db: Exec,
  id: number,
  patch: RedemptionPatch,
  statuses: number[],
): Promise<boolean> {
  const result = await db.k
    .updateTable("redemptions")
    .set(patch)
    .where("id", "=", id)
    .where("status", "in", statuses)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return affected(result) === 1;
}

export async function softDeleteRedemption(db: Exec, id: number, at: number): Promise<boolean> {
  const result = await db.k
    .updateTable("redemptions")
    .set({ deleted_at: at })
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return affected(result) === 1;
}

/** Soft-deletes the live codes whose status is one of `statuses` or that expired by `now`; answers how many. */
export async function softDeleteDeadRedemptions(
  db: Exec,
  statuses: number[],
  now: number,
  at: number,
): Promise<number> {
  const result = await db.k
    .updateTable("redemptions")
    .set({ deleted_at: at })
    .where("deleted_at", "is", null)
    .where((eb) =>
      eb.or([eb("status", "in", statuses), eb.and([eb("expired_time", "!=", 0), eb("expired_time", "<=", now)])]),
    )
    .executeTakeFirst();
  return affected(result);
}

export interface Claim {
  key: string;
  userId: number;
  now: number;
  from: number;
  to: number;
}

/**
 * Moves a live, unexpired code from status `from` to `to` for the user in one conditional statement, so of
 * many concurrent claims exactly one matches; answers the claimed row, or undefined when none matched.
 */
export async function claimRedemption(db: Exec, claim: Claim): Promise<RedemptionRow | undefined> {
  const result = await db.k
    .updateTable("redemptions")
    .set({ status: claim.to, used_user_id: claim.userId, redeemed_time: claim.now })
    .where("key", "=", claim.key)
    .where("status", "=", claim.from)
    .where("deleted_at", "is", null)
    .where((eb) => eb.or([eb("expired_time", "=", 0), eb("expired_time", ">", claim.now)]))
    .executeTakeFirst();
  return affected(result) === 1 ? findLiveRedemptionByKey(db, claim.key) : undefined;
}
