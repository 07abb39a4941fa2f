import type { Exec } from "../exec";
import { runPrepared } from "../prepared";
import type { TokenRow } from "../schema";

/** The live (not deleted) token with this key hash. */
export async function findLiveTokenByHash(db: Exec, hash: string): Promise<TokenRow | undefined> {
  const build = (k: Exec["k"]) => k.selectFrom("tokens").selectAll().where("key_hash", "=", "").where("deleted_at", "is", null);
  const rows = await runPrepared<TokenRow>(db, "token-by-hash", build, [hash]);
  return rows[0];
}

/** A token's quota columns as stored now (for reports; the relay itself reads balances from the book). */
export async function readTokenQuota(db: Exec, id: number) {
  return db.k.selectFrom("tokens").select(["remain_quota", "used_quota"]).where("id", "=", id).executeTakeFirst();
}

export async function readUserUsedQuota(db: Exec, id: number): Promise<number> {
  const row = await db.k.selectFrom("users").select("used_quota").where("id", "=", id).executeTakeFirst();
  return row?.used_quota ?? 0;
}
