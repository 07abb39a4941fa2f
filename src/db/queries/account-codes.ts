import { affected, type Exec } from "../exec";
import type { AccountCodesTable } from "../schema";
import type { Selectable } from "kysely";

export type AccountCodeRow = Selectable<AccountCodesTable>;

export function findAccountCode(db: Exec, purpose: string, subject: string): Promise<AccountCodeRow | undefined> {
  return db.k
    .selectFrom("account_codes")
    .selectAll()
    .where("purpose", "=", purpose)
    .where("subject", "=", subject)
    .executeTakeFirst();
}

/** Replaces the code of (purpose, subject): a new send voids the one before. */
export async function putAccountCode(db: Exec, row: AccountCodeRow): Promise<void> {
  await db.k
    .deleteFrom("account_codes")
    .where("purpose", "=", row.purpose)
    .where("subject", "=", row.subject)
    .execute();
  await db.k.insertInto("account_codes").values(row).execute();
}

/** Counts a wrong try. */
export async function countWrongTry(db: Exec, purpose: string, subject: string): Promise<void> {
  await db.k
    .updateTable("account_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("purpose", "=", purpose)
    .where("subject", "=", subject)
    .execute();
}

/** Deletes the code only if it is still the one that was checked; answers whether this call used it up. */
export async function takeAccountCode(db: Exec, purpose: string, subject: string, codeHash: string): Promise<boolean> {
  const result = await db.k
    .deleteFrom("account_codes")
    .where("purpose", "=", purpose)
    .where("subject", "=", subject)
    .where("code_hash", "=", codeHash)
    .executeTakeFirst();
  return affected(result) === 1;
}

export async function deleteExpiredAccountCodes(db: Exec, now: number): Promise<void> {
  await db.k.deleteFrom("account_codes").where("expires_at", "<=", now).execute();
}
