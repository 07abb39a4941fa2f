import { findLiveUserByEmail, updateUser } from "../../db/queries/users";
import { inTransaction } from "../../db/exec";
import type { ServiceContext } from "../context";
import { randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { sendMail } from "../mail/send";
import { MAILS } from "../mail/templates";
import { hashPassword } from "../users/password";
import { checkCode, dropCode, storeCode, spendCheckedCode } from "./codes";
import { verifyHumanCheck } from "./human-check";
import { limitMailRequest } from "./mail-limits";
import type { MailRequest } from "./verification";

export const RESET_LINK_INVALID = "the password reset link is invalid or has expired";
const VALID_MINUTES = 15;

/**
 * GET /api/reset_password: when an account has the address, mails a link to
 * `<ServerAddress>/user/reset?email=…&token=…` (valid 15 minutes, once). The reply is the same whether or not an
 * account has it, so the call does not tell who is registered.
 */
export async function sendPasswordReset(ctx: ServiceContext, emailInput: unknown, request: MailRequest): Promise<void> {
  await verifyHumanCheck(ctx, request.turnstile, request.clientIp);
  const email = typeof emailInput === "string" ? emailInput.trim().toLowerCase() : "";
  if (!email) refuse("email is required");
  const base = ctx.options.raw("ServerAddress");
  if (!base) refuse("the site's server address is not set, so no reset link can be sent; contact the administrator");
  await limitMailRequest(ctx, "reset", email, request.clientIp);
  const user = await findLiveUserByEmail(ctx.db, email);
  if (!user) return;
  const token = randomAlphanumeric(32);
  await storeCode(ctx, "reset", email, token, VALID_MINUTES * 60, user.id);
  const link = `${base}/user/reset?${new URLSearchParams({ email, token })}`;
  const mail = MAILS.passwordReset(ctx.options.raw("SystemName"), link, VALID_MINUTES)[request.language];
  await sendMail(ctx, { to: email, ...mail }).catch(async (error) => {
    await dropCode(ctx, "reset", email, token);
    throw error;
  });
}

/** POST /api/user/reset: uses up the link, sets a new random password and answers it; every session of the user ends. */
export async function confirmPasswordReset(
  ctx: ServiceContext,
  input: { email?: unknown; token?: unknown },
): Promise<string> {
  const email = typeof input.email === "string" ? input.email.trim().toLowerCase() : "";
  const token = typeof input.token === "string" ? input.token.trim() : "";
  if (!email || !token) refuse(RESET_LINK_INVALID);
  const link = await checkCode(ctx, "reset", email, token, RESET_LINK_INVALID);
  const user = await findLiveUserByEmail(ctx.db, email);
  if (!user || user.id !== link.user_id) return refuse(RESET_LINK_INVALID);
  const password = randomAlphanumeric(12);
  const hash = await hashPassword(password);
  await inTransaction(ctx.db, async (tx) => {
    await spendCheckedCode(tx, link, RESET_LINK_INVALID);
    await updateUser(tx, user.id, { password: hash });
  });
  ctx.users.forget(user.id);
  await ctx.sessions.revokeAllOf(user.id);
  return password;
}
