import { findLiveUserByLogin, findUserById } from "../../db/queries/users";
import { changeUser } from "../users/directory";
import type { UserRow } from "../../db/schema";
import { UserStatus } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { keyedHash, randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { beginSignInAttempt } from "./login-backoff";
import { nowSeconds } from "../time";
import { verifyAgainstNobody, verifyPassword } from "../users/password";
import { checkCode, storeCode, spendCheckedCode } from "./codes";
import { verifyHumanCheck } from "./human-check";
import { passesSecondFactor, twoFactorEnabled } from "./two-factor";
import { countWrongTry } from "../../db/queries/account-codes";

export const WRONG_CREDENTIALS = "username or password is incorrect, or the user has been banned";
export const SECOND_STEP_EXPIRED = "the sign-in has expired or had too many wrong codes, please sign in again";
/** How long the second step of a sign-in waits for the code. */
const SECOND_STEP_SECONDS = 300;

/** A finished sign-in (a new session), or one waiting for its two-factor code (`ticket` names it). */
export type SignIn = { user: UserRow; sessionId: string } | { user: UserRow; ticket: string };

const ticketSubject = (ctx: ServiceContext, ticket: string) => keyedHash(ctx.secret, `sign-in-ticket:${ticket}`);

async function finish(ctx: ServiceContext, user: UserRow): Promise<SignIn> {
  await changeUser(ctx, user.id, { last_login_at: nowSeconds() });
  return { user, sessionId: await ctx.sessions.create(user.id) };
}

/**
 * Checks credentials (username or email) from the client at `address`, after the human check and under the account's
 * sign-in backoff; wrong, banned and deleted all read the same. With two-factor sign-in on, no session yet: a ticket
 * for the second step (valid 5 minutes).
 */
export async function login(
  ctx: ServiceContext,
  input: { username?: unknown; password?: unknown },
  address: string,
  turnstile?: unknown,
): Promise<SignIn> {
  if (!ctx.options.bool("PasswordLoginEnabled")) {
    refuse("password sign-in is disabled by the administrator, please use another sign-in method");
  }
  const name = typeof input.username === "string" ? input.username.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!name || !password) refuse("username and password are required");
  await verifyHumanCheck(ctx, turnstile, address);
  const user = await findLiveUserByLogin(ctx.db, name);
  const attempt = await beginSignInAttempt(ctx, user?.id, name, address);
  const ok = user ? await verifyPassword(password, user.password) : await verifyAgainstNobody(password);
  if (!user || !ok || user.status !== UserStatus.Enabled) return refuse(WRONG_CREDENTIALS);
  await attempt.succeeded();
  if (!twoFactorEnabled(user)) return finish(ctx, user);
  const ticket = randomAlphanumeric(32);
  await storeCode(ctx, "sign-in", ticketSubject(ctx, ticket), "", SECOND_STEP_SECONDS, user.id);
  return { user, ticket };
}

/** The second step: the ticket of the first and a code of the user's app (or a recovery code); five wrong codes void it. */
export async function loginSecondStep(
  ctx: ServiceContext,
  input: { ticket?: unknown; code?: unknown },
): Promise<{ user: UserRow; sessionId: string }> {
  const ticket = typeof input.ticket === "string" ? input.ticket : "";
  if (!ticket) refuse(SECOND_STEP_EXPIRED);
  const subject = ticketSubject(ctx, ticket);
  const pending = await checkCode(ctx, "sign-in", subject, "", SECOND_STEP_EXPIRED);
  const user = await findUserById(ctx.db, pending.user_id);
  if (!user || user.deleted_at !== null || user.status !== UserStatus.Enabled) return refuse(SECOND_STEP_EXPIRED);
  if (!(await passesSecondFactor(ctx, user, input.code))) {
    await countWrongTry(ctx.db, "sign-in", subject);
    return refuse("two-factor code is wrong");
  }
  await spendCheckedCode(ctx.db, pending, SECOND_STEP_EXPIRED);
  return (await finish(ctx, user)) as { user: UserRow; sessionId: string };
}

export async function logout(ctx: ServiceContext, sessionId: string | undefined): Promise<void> {
  if (sessionId) await ctx.sessions.revoke(sessionId);
}
