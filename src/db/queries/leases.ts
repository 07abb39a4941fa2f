import { sql, type ExpressionBuilder } from "kysely";
import { inTransaction, type Exec } from "../exec";
import { runPrepared } from "../prepared";
import type { Tables } from "../schema";

/** 0: a user's quota (`users.quota`); 1: a limited token's remain (`tokens.remain_quota`). */
export type LeaseSide = 0 | 1;

const table = (side: LeaseSide) => (side === 0 ? "users" : "tokens");

/** The lease row of `holder` on one account. */
const theLease = (holder: string, side: number, id: number) => (eb: ExpressionBuilder<Tables, "quota_leases">) =>
  eb.and({ holder, side, account_id: id });

/** What of an account's balance no instance has leased (negative when its balance was cut below its leases). */
async function unleased(db: Exec, side: LeaseSide, id: number): Promise<number | undefined> {
  const row =
    side === 0
      ? await db.k
          .selectFrom("users")
          .select(["quota as balance", "leased_quota"])
          .where("id", "=", id)
          .executeTakeFirst()
      : await db.k
          .selectFrom("tokens")
          .select(["remain_quota as balance", "leased_quota"])
          .where("id", "=", id)
          .executeTakeFirst();
  return row ? Number(row.balance) - Number(row.leased_quota) : undefined;
}

/**
 * Adds to `holder`'s lease on an account: `want` when that much is unleased, else at least `need`, else nothing.
 * The condition and the addition are one UPDATE, so instances racing for the same money cannot both get it.
 * Answers what was added (0: the balance cannot cover `need`).
 */
export function takeLease(
  db: Exec,
  holder: string,
  side: LeaseSide,
  id: number,
  need: number,
  want: (unleased: number) => number,
  now: number,
): Promise<number> {
  return retryingDeadlocks(() =>
    inTransaction(db, async (tx) => {
      const free = (await unleased(tx, side, id)) ?? 0;
      if (free < need) return 0;
      for (const amount of [Math.max(need, Math.min(free, want(free))), need]) {
        const column = side === 0 ? sql.ref("quota") : sql.ref("remain_quota");
        const taken = await tx.k
          .updateTable(table(side))
          .set((eb) => ({ leased_quota: eb("leased_quota", "+", amount) }))
          .where("id", "=", id)
          .where(sql<number>`${column} - leased_quota`, ">=", amount)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 0) continue;
        await addToLeaseRow(tx, holder, side, id, amount, now);
        return amount;
      }
      return 0;
    }),
  );
}

/** Adds to the holder's lease row, creating it (one upsert: no gap lock on MySQL for a row not there yet). */
async function addToLeaseRow(db: Exec, holder: string, side: LeaseSide, id: number, amount: number, now: number) {
  const insert = db.k.insertInto("quota_leases").values({ holder, side, account_id: id, amount, renewed_at: now });
  const add = (eb: ExpressionBuilder<Tables, "quota_leases">) => ({
    amount: eb(eb.ref("quota_leases.amount"), "+", amount),
    renewed_at: now,
  });
  await (db.dialect === "mysql"
    ? insert.onDuplicateKeyUpdate(add)
    : insert.onConflict((oc) => oc.columns(["holder", "side", "account_id"]).doUpdateSet(add))
  ).execute();
}

const DEADLOCK = /deadlock|try restarting transaction|could not serialize/i;

/** Runs a lease transaction again when the database chose it as a deadlock's victim (it was rolled back whole). */
async function retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt === 4 || !(error instanceof Error) || !DEADLOCK.test(error.message)) throw error;
      await Bun.sleep(attempt * 5);
    }
  }
}

/** Gives `amount` of `holder`'s lease on an account back (the row goes with the last of it). */
export function giveBackLease(db: Exec, holder: string, side: LeaseSide, id: number, amount: number): Promise<void> {
  return retryingDeadlocks(() =>
    inTransaction(db, async (tx) => {
      const held = await tx.k
        .selectFrom("quota_leases")
        .select("amount")
        .where(theLease(holder, side, id))
        .executeTakeFirst();
      if (!held) return;
      const part = Math.min(amount, Number(held.amount));
      if (part === Number(held.amount))
        await tx.k
          .deleteFrom("quota_leases")
          .where(theLease(holder, side, id))
          .execute();
      else
        await tx.k
          .updateTable("quota_leases")
          .set((eb) => ({ amount: eb("amount", "-", part) }))
          .where(theLease(holder, side, id))
          .execute();
      await unlease(tx, side, id, part);
    }),
  );
}

/** Takes `amount` off an account's sum of leases. */
function unlease(db: Exec, side: LeaseSide, id: number, amount: number) {
  return db.k
    .updateTable(table(side))
    .set((eb) => ({ leased_quota: eb("leased_quota", "-", amount) }))
    .where("id", "=", id)
    .execute();
}

/**
 * Marks `holder` alive and drops its used-up leases; answers the accounts it still holds leases on (a lease
 * missing was reclaimed as a dead holder's, see `reclaimLeases`, and is no longer the holder's to spend).
 */
export async function renewLeases(db: Exec, holder: string, now: number): Promise<{ side: number; id: number }[]> {
  await db.k.updateTable("quota_leases").set({ renewed_at: now }).where("holder", "=", holder).execute();
  // Rows the holder's charges used up (the flush leaves them, to keep its statements few).
  await db.k.deleteFrom("quota_leases").where("holder", "=", holder).where("amount", "<=", 0).execute();
  const rows = await db.k
    .selectFrom("quota_leases")
    .select(["side", "account_id"])
    .where("holder", "=", holder)
    .execute();
  return rows.map((row) => ({ side: Number(row.side), id: Number(row.account_id) }));
}

/**
 * Gives back every lease whose holder starts with `prefix` (a dead process whose charges are written), in the
 * caller's transaction.
 */
export async function dropLeasesOf(db: Exec, prefix: string): Promise<void> {
  const rows = await db.k
    .selectFrom("quota_leases")
    .select(["side", "account_id", "amount"])
    .where("holder", "like", `${prefix}%`)
    .execute();
  await db.k.deleteFrom("quota_leases").where("holder", "like", `${prefix}%`).execute();
  for (const row of rows) await unlease(db, row.side as LeaseSide, Number(row.account_id), Number(row.amount));
}

/** Gives back the leases whose holders have not renewed them since `before` (they died); answers how many. */
export async function reclaimLeases(db: Exec, before: number): Promise<number> {
  const stale = await db.k
    .selectFrom("quota_leases")
    .select(["holder", "side", "account_id", "amount"])
    .where("renewed_at", "<", before)
    .execute();
  let reclaimed = 0;
  for (const lease of stale) {
    reclaimed += await retryingDeadlocks(() =>
      inTransaction(db, async (tx) => {
        const gone = await tx.k
          .deleteFrom("quota_leases")
          .where(theLease(lease.holder, lease.side, lease.account_id))
          .where("renewed_at", "<", before)
          .executeTakeFirst();
        if (Number(gone.numDeletedRows) === 0) return 0;
        await unlease(tx, lease.side as LeaseSide, Number(lease.account_id), Number(lease.amount));
        return 1;
      }),
    );
  }
  return reclaimed;
}

/**
 * In a billing flush's transaction: the settled charges of `holder` that its leases covered leave the leases
 * (the balance itself is debited by writeChargeTotals). A lease reclaimed meanwhile is not touched.
 */
export async function spendLeases(db: Exec, holder: string, spent: Map<number, number>, side: LeaseSide) {
  for (const [id, amount] of spent) {
    await runPrepared(
      db,
      side === 0 ? "spend-user-lease" : "spend-token-lease",
      (k) =>
        k
          .updateTable(table(side))
          .set((eb) => ({ leased_quota: eb("leased_quota", "-", 0) }))
          .where("id", "=", 0)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom("quota_leases")
                .select("amount")
                .where("holder", "=", "")
                .where("side", "=", side)
                .where("account_id", "=", 0),
            ),
          ),
      [amount, id, holder, side, id],
    );
    await runPrepared(
      db,
      "spend-lease",
      (k) =>
        k
          .updateTable("quota_leases")
          .set((eb) => ({ amount: eb("amount", "-", 0) }))
          .where("holder", "=", "")
          .where("side", "=", 0)
          .where("account_id", "=", 0),
      [amount, holder, side, id],
    );
  }
}
