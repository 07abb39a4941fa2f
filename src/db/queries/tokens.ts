import type { Exec } from "../exec";
import { insertReturningId } from "../exec";
import { runPrepared } from "../prepared";
import { containsText } from "./like";
import type { NewTokenRow, TokenPatch, TokenRow } from "../schema";

/** Every query but the relay's key lookup names the owner: a user reaches only their own tokens. */
const liveTokensOf = (db: Exec, userId: number) =>
  db.k.selectFrom("tokens").where("user_id", "=", userId).where("deleted_at", "is", null);

export const insertToken = (db: Exec, row: NewTokenRow): Promise<number> => insertReturningId(db, "tokens", row);

export function findOwnToken(db: Exec, userId: number, id: number): Promise<TokenRow | undefined> {
  return liveTokensOf(db, userId).selectAll().where("id", "=", id).executeTakeFirst();
}

/** The relay's lookup: a live token by the keyed hash of its key, whoever owns it. */
export async function findLiveTokenByHash(db: Exec, keyHash: string): Promise<TokenRow | undefined> {
  const build = (k: Exec["k"]) =>
    k.selectFrom("tokens").selectAll().where("key_hash", "=", "").where("deleted_at", "is", null);
  const rows = await runPrepared<TokenRow>(db, "token-by-key-hash", build, [keyHash]);
  return rows[0];
}

export async function countLiveTokensOf(db: Exec, userId: number): Promise<number> {
  const row = await liveTokensOf(db, userId)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface TokenQuery {
  userId: number;
  /** Part of the name. */
  keyword?: string;
  /** The keyed hash of a whole key. */
  keyHash?: string;
  offset: number;
  limit: number;
}

/** A page of a user's live tokens, newest first, and the total that match. */
export async function pageTokensOf(db: Exec, query: TokenQuery): Promise<{ rows: TokenRow[]; total: number }> {
  let base = liveTokensOf(db, query.userId);
  if (query.keyword) base = base.where(containsText("name", query.keyword));
  if (query.keyHash) base = base.where("key_hash", "=", query.keyHash);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy("id", "desc").limit(query.limit).offset(query.offset).execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The sealed keys of those of `ids` the user owns and has not deleted. */
export function sealedKeysOf(db: Exec, userId: number, ids: number[]): Promise<{ id: number; key_sealed: string }[]> {
  return liveTokensOf(db, userId).select(["id", "key_sealed"]).where("id", "in", ids).orderBy("id").execute();
}

/** Those of `ids` the user owns and has not deleted. */
export async function ownLiveTokenIds(db: Exec, userId: number, ids: number[]): Promise<number[]> {
  const rows = await liveTokensOf(db, userId).select("id").where("id", "in", ids).orderBy("id").execute();
  return rows.map((row) => row.id);
}

export async function updateOwnToken(db: Exec, userId: number, id: number, patch: TokenPatch): Promise<void> {
  await db.k
    .updateTable("tokens")
    .set(patch)
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .execute();
}

export async function softDeleteOwnTokens(db: Exec, userId: number, ids: number[], at: number): Promise<void> {
  await db.k
    .updateTable("tokens")
    .set({ deleted_at: at })
    .where("id", "in", ids)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .execute();
}
