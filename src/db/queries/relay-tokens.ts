import type { Exec } from "../exec";

/** A token's quota columns as stored now (for reports; the relay itself reads balances from the book). */
export async function readTokenQuota(db: Exec, id: number) {
  return db.k.selectFrom("tokens").select(["remain_quota", "used_quota"]).where("id", "=", id).executeTakeFirst();
}

export async function readUserUsedQuota(db: Exec, id: number): Promise<number> {
  const row = await db.k.selectFrom("users").select("used_quota").where("id", "=", id).executeTakeFirst();
  return row?.used_quota ?? 0;
}
