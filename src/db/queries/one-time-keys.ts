import type { Db } from "../connect";
import type { Exec } from "../exec";
import { affected } from "../exec";

/**
 * Stores a key that can be taken once before `expiresAt` (Unix seconds); answers false when the key is already
 * stored (insert-or-ignore, so two instances racing for the same key cannot both win). Expired keys go first.
 */
export async function putOneTimeKey(db: Db, key: string, value: string, expiresAt: number, now: number) {
  await db.k.deleteFrom("one_time_keys").where("expires_at", "<=", now).execute();
  const insert = db.k.insertInto("one_time_keys").values({ key, value, expires_at: expiresAt });
  const result =
    db.dialect === "mysql"
      ? await insert.ignore().executeTakeFirst()
      : await insert.onConflict((oc) => oc.column("key").doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** Takes a live key's value and removes it in the same step: of two callers with the same key, one gets it. */
export async function takeOneTimeKey(db: Exec, key: string, now: number): Promise<string | undefined> {
  const row = await db.k
    .selectFrom("one_time_keys")
    .select(["value", "expires_at"])
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row) return undefined;
  const removed = affected(await db.k.deleteFrom("one_time_keys").where("key", "=", key).executeTakeFirst());
  return removed === 1 && row.expires_at > now ? row.value : undefined;
}
