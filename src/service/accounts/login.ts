import { findLiveUserByLogin } from "../../db/queries/users";
import { changeUser } from "../users/directory";
import type { UserRow } from "../../db/schema";
import { UserStatus } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { beginSignInAttempt } from "./login-backoff";
import { nowSeconds } from "../time";
import { verifyAgainstNobody, verifyPassword } from "../users/password";

export const WRONG_CREDENTIALS = "username or password is incorrect, or the user has been banned";

/**
 * Checks credentials (username or email) from the client at `address`, under the account's sign-in backoff;
 * wrong, banned and deleted all read the same. Answers the user and a new session id.
 */
export async function login(
  ctx: ServiceContext,
  input: { username?: unknown; password?: unknown },
  address: string,
): Promise<{ user: UserRow; sessionId: string }> {
  if (!ctx.options.bool("PasswordLoginEnabled")) {
    refuse("password sign-in is disabled by the administrator, please use another sign-in method");
  }
  const name = typeof input.username === "string" ? input.username.trim() : "";
  const password = typeof input.password === "string" ? input.password : "";
  if (!name || !password) refuse("username and password are required");
  const user = await findLiveUserByLogin(ctx.db, name);
  const attempt = await beginSignInAttempt(ctx, user?.id, name, address);
  const ok = user ? await verifyPassword(password, user.password) : await verifyAgainstNobody(password);
  if (!user || !ok || user.status !== UserStatus.Enabled) return refuse(WRONG_CREDENTIALS);
  await attempt.succeeded();
  await changeUser(ctx, user.id, { last_login_at: nowSeconds() });
  return { user, sessionId: await ctx.sessions.create(user.id) };
}

export async function logout(ctx: ServiceContext, sessionId: string | undefined): Promise<void> {
  if (sessionId) await ctx.sessions.revoke(sessionId);
}
