import {
  countWrongTry,
  findAccountCode,
  putAccountCode,
  takeAccountCode,
  type AccountCodeRow,
} from "../../db/queries/account-codes";
import type { Exec } from "../../db/exec";
import type { ServiceContext } from "../context";
import { keyedHash } from "../crypto";
import { refuse } from "../errors";
import { nowSeconds } from "../time";

/** What a code or link is for; a code of one purpose never passes for another. */
export type CodePurpose = "email" | "reset" | "sign-in";

/** Wrong tries after which a code is void. */
export const MAX_WRONG_TRIES = 5;

const hashOf = (ctx: ServiceContext, purpose: CodePurpose, subject: string, code: string) =>
  keyedHash(ctx.secret, `account-code:${purpose}:${subject}:${code}`);

/** Stores a new code for (purpose, subject), voiding the one before; only its keyed hash is kept. */
export async function storeCode(
  ctx: ServiceContext,
  purpose: CodePurpose,
  subject: string,
  code: string,
  validSeconds: number,
  userId = 0,
): Promise<void> {
  const now = nowSeconds();
  await putAccountCode(ctx.db, {
    purpose,
    subject,
    code_hash: hashOf(ctx, purpose, subject, code),
    user_id: userId,
    sent_at: now,
    expires_at: now + validSeconds,
    attempts: 0,
  });
}

/** Seconds since the last code for (purpose, subject) was sent; undefined when none is pending. */
export async function secondsSinceSent(
  ctx: ServiceContext,
  purpose: CodePurpose,
  subject: string,
): Promise<number | undefined> {
  const row = await findAccountCode(ctx.db, purpose, subject);
  return row && row.expires_at > nowSeconds() ? nowSeconds() - row.sent_at : undefined;
}

/**
 * Checks a code without using it up: it must exist, be unexpired, have fewer than MAX_WRONG_TRIES wrong tries and
 * match. A wrong code counts a try; any failure is refused with `refusal`. Answers what `spendCheckedCode` needs.
 */
export async function checkCode(
  ctx: ServiceContext,
  purpose: CodePurpose,
  subject: string,
  code: string,
  refusal: string,
): Promise<AccountCodeRow> {
  const row = await findAccountCode(ctx.db, purpose, subject);
  if (!row || row.expires_at <= nowSeconds() || row.attempts >= MAX_WRONG_TRIES) return refuse(refusal);
  if (row.code_hash !== hashOf(ctx, purpose, subject, code)) {
    await countWrongTry(ctx.db, purpose, subject);
    return refuse(refusal);
  }
  return row;
}

/** Uses up a checked code (inside the caller's transaction when given): once, even for two requests at one moment. */
export async function spendCheckedCode(exec: Exec, row: AccountCodeRow, refusal: string): Promise<void> {
  if (!(await takeAccountCode(exec, row.purpose, row.subject, row.code_hash))) refuse(refusal);
}

/** Drops a code that was stored but could not be delivered. */
export async function dropCode(
  ctx: ServiceContext,
  purpose: CodePurpose,
  subject: string,
  code: string,
): Promise<void> {
  await takeAccountCode(ctx.db, purpose, subject, hashOf(ctx, purpose, subject, code));
}
