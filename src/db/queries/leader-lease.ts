import { affected, type Exec } from "../exec";
import { readOne } from "./key-value";

/** A lease's stored value: "<holder> <expiry in ms>". */
const leaseValue = (holder: string, until: number) => `${holder} ${until}`;

/**
 * Takes or renews the lease `key` for `holder` until `until` (ms), when it is free, expired at `now` or already
 * the holder's: a compare-and-set on the stored value, so of several instances asking at once only one wins.
 * Answers whether `holder` holds it now.
 */
export async function claimLease(db: Exec, key: string, holder: string, now: number, until: number): Promise<boolean> {
  const stored = await readOne(db, "internals", key);
  if (stored === undefined) {
    const insert = db.k.insertInto("internals").values({ key, value: leaseValue(holder, until) });
    const result =
      db.dialect === "mysql"
        ? await insert.ignore().executeTakeFirst()
        : await insert.onConflict((oc) => oc.column("key").doNothing()).executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
  const [current = "", expiry = "0"] = stored.split(" ");
  if (current !== holder && Number(expiry) > now) return false;
  const value = leaseValue(holder, until);
  const result = await db.k
    .updateTable("internals")
    .set({ value })
    .where("key", "=", key)
    .where("value", "=", stored)
    .executeTakeFirst();
  // MySQL counts only rows it changed: a renewal within the same millisecond writes the value already there.
  return affected(result) === 1 || stored === value;
}

/** Gives the lease up when `holder` holds it (a stopping instance lets another take over at once). */
export async function releaseLease(db: Exec, key: string, holder: string): Promise<void> {
  const stored = await readOne(db, "internals", key);
  if (!stored?.startsWith(`${holder} `)) return;
  await db.k
    .updateTable("internals")
    .set({ value: leaseValue("", 0) })
    .where("key", "=", key)
    .where("value", "=", stored)
    .execute();
}
