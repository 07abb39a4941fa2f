import { inTransaction } from "../../db/exec";
import { findUserById, isAffCodeTaken, isEmailTaken, moveAffQuotaToQuota } from "../../db/queries/users";
import { changeUser } from "./directory";
import type { UserPatch, UserRow } from "../../db/schema";
import { LogType, Role } from "../../shared/constants";
import { quotaText } from "../quota-text";
import type { ServiceContext } from "../context";
import { keyedHash, randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { recordBalanceChange } from "../ledger";
import { nowSeconds } from "../time";
import { displayNameOf } from "./admin-input";
import { checkPasswordRules, hashPassword, NO_PASSWORD, verifyPassword } from "./password";

export interface SelfUpdate {
  display_name?: unknown;
  password?: unknown;
  original_password?: unknown;
}

/**
 * Updates one's profile, or the password alone. A password change needs the current password and signs the
 * user out everywhere (sessions and the system access token), as a stolen session must not outlive it.
 */
export async function updateSelf(
  ctx: ServiceContext,
  user: UserRow,
  input: SelfUpdate,
): Promise<{ signedOut: boolean }> {
  const patch: UserPatch = {};
  if (input.display_name !== undefined) {
    if (typeof input.display_name !== "string") refuse("display_name must be a string");
    patch.display_name = displayNameOf(input.display_name as string) || user.username;
  }
  const changingPassword = typeof input.password === "string" && input.password !== "";
  if (changingPassword) {
    const password = input.password as string;
    checkPasswordRules(password);
    const original = typeof input.original_password === "string" ? input.original_password : "";
    // A user created through third-party sign-in has no password yet: the first one needs no current one.
    const hasPassword = user.password !== NO_PASSWORD;
    if (hasPassword && !(await verifyPassword(original, user.password))) refuse("the current password is incorrect");
    patch.password = await hashPassword(password);
    patch.access_token_hash = null;
  }
  if (Object.keys(patch).length === 0) refuse("nothing to update");
  await changeUser(ctx, user.id, patch);
  if (changingPassword) await ctx.sessions.revokeAllOf(user.id);
  return { signedOut: changingPassword };
}

/** Soft-deletes one's own account and signs it out everywhere; root cannot delete itself. */
export async function deleteSelf(ctx: ServiceContext, user: UserRow): Promise<void> {
  if (user.role >= Role.Root) refuse("the super administrator account cannot be deleted");
  await changeUser(ctx, user.id, { deleted_at: nowSeconds(), access_token_hash: null });
  await ctx.sessions.revokeAllOf(user.id);
}

/** A new system access token; the previous one stops working. Only its keyed hash is stored. */
export async function regenerateAccessToken(ctx: ServiceContext, user: UserRow): Promise<string> {
  const token = randomAlphanumeric(32);
  await changeUser(ctx, user.id, { access_token_hash: keyedHash(ctx.secret, token) });
  return token;
}

export async function affCodeOf(ctx: ServiceContext, user: UserRow): Promise<string> {
  if (user.aff_code) return user.aff_code;
  let code = randomAlphanumeric(6);
  while (await isAffCodeTaken(ctx.db, code)) code = randomAlphanumeric(6);
  await changeUser(ctx, user.id, { aff_code: code });
  return code;
}

/** Moves affiliate earnings into the balance: at least one QuotaPerUnit, at most what was earned, atomically. */
export async function transferAffQuota(ctx: ServiceContext, user: UserRow, amount: unknown): Promise<void> {
  const quota = typeof amount === "string" && amount.trim() !== "" ? Number(amount) : amount;
  if (typeof quota !== "number" || !Number.isInteger(quota) || quota <= 0)
    refuse("quota must be a positive whole number");
  const perUnit = ctx.options.num("QuotaPerUnit");
  const q = quota as number;
  if (q < perUnit) refuse(`the minimum transfer is ${quotaText(ctx, perUnit)}`);
  await inTransaction(ctx.db, async (tx) => {
    if (!(await moveAffQuotaToQuota(tx, user.id, q))) refuse("affiliate quota is not enough");
    await recordBalanceChange(tx, {
      userId: user.id,
      username: user.username,
      type: LogType.System,
      quota: q,
      content: `affiliate earnings transferred to the balance: ${quotaText(ctx, q)}`,
    });
  });
  ctx.users.forget(user.id);
}

export async function reloadUser(ctx: ServiceContext, id: number): Promise<UserRow> {
  return (await findUserById(ctx.db, id)) ?? refuse("user not found");
}

export async function checkEmailFree(ctx: ServiceContext, email: string, userId: number): Promise<void> {
  if (await isEmailTaken(ctx.db, email, userId)) refuse("email is already in use");
}
