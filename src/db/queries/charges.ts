import type { Exec } from "../exec";
import type { NewLogRow } from "../schema";

/** Per-row deltas of a batch of settled calls. */
export interface ChargeTotals {
  users: Map<number, { quota: number; used: number; requests: number }>;
  tokens: Map<number, { remain: number; used: number }>;
  channels: Map<number, number>;
  logs: NewLogRow[];
}

const LOG_CHUNK = 200;

/** Writes a batch of settled calls: balance deltas and log rows, in the caller's transaction. */
export async function writeChargeTotals(db: Exec, totals: ChargeTotals): Promise<void> {
  for (const [id, d] of totals.users) {
    await db.k
      .updateTable("users")
      .set((eb) => ({
        quota: eb("quota", "+", d.quota),
        used_quota: eb("used_quota", "+", d.used),
        request_count: eb("request_count", "+", d.requests),
      }))
      .where("id", "=", id)
      .execute();
  }
  for (const [id, d] of totals.tokens) {
    await db.k
      .updateTable("tokens")
      .set((eb) => ({ remain_quota: eb("remain_quota", "+", d.remain), used_quota: eb("used_quota", "+", d.used) }))
      .where("id", "=", id)
      .execute();
  }
  for (const [id, used] of totals.channels) {
    await db.k
      .updateTable("channels")
      .set((eb) => ({ used_quota: eb("used_quota", "+", used) }))
      .where("id", "=", id)
      .execute();
  }
  for (let i = 0; i < totals.logs.length; i += LOG_CHUNK) {
    await db.k.insertInto("logs").values(totals.logs.slice(i, i + LOG_CHUNK)).execute();
  }
}

export async function readUserQuota(db: Exec, id: number): Promise<number | undefined> {
  const row = await db.k.selectFrom("users").select("quota").where("id", "=", id).executeTakeFirst();
  return row?.quota;
}

export async function readTokenRemain(db: Exec, id: number): Promise<number | undefined> {
  const row = await db.k.selectFrom("tokens").select("remain_quota").where("id", "=", id).executeTakeFirst();
  return row?.remain_quota;
}
