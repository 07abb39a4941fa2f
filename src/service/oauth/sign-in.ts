import { findUserByExternalId } from "../../db/queries/users";
import { USERNAME_MAX, UserStatus } from "../../shared/constants";
import { insertWithGrants } from "../accounts/register";
import type { ServiceContext } from "../context";
import { randomAlphanumeric } from "../crypto";
import { refuse, ServiceError } from "../errors";
import { nowSeconds } from "../time";
import { prepareUser, type PreparedUser } from "../users/create";
import { changeUser, type UserRow } from "../users/directory";
import { type ExternalAccount, OAUTH_PROVIDERS, type OAuthProvider } from "./providers";

export const ALREADY_BOUND = "this account is already bound to another user";
export const REGISTRATION_CLOSED = "new user registration is disabled by the administrator";
export const BANNED = "User has been banned";

export type SignInOutcome = { kind: "bound" } | { kind: "signed-in"; user: UserRow; sessionId: string };

/** The provider's switch: off, its routes refuse. */
export function requireEnabled(ctx: ServiceContext, provider: OAuthProvider): void {
  const { name, enabled } = OAUTH_PROVIDERS[provider];
  if (!ctx.options.bool(enabled)) refuse(`sign-in with ${name} is not enabled by the administrator`);
}

/**
 * The provider's own name when it makes a valid username, else the provider's prefix and random letters; the
 * provider's display name when it is a valid one (whether they are free is checked at insert).
 */
async function newUserFor(account: ExternalAccount): Promise<PreparedUser> {
  const letters = Math.max(3, USERNAME_MAX - account.provider.length - 1);
  const random = `${account.provider}_${randomAlphanumeric(letters)}`;
  const names = account.username ? [account.username, random] : [random];
  const displayNames = account.displayName ? [account.displayName.slice(0, 20), undefined] : [undefined];
  for (const username of names)
    for (const display_name of displayNames) {
      const prepared = await prepareUser({ username, password: null, display_name }).catch(() => undefined);
      if (prepared) return prepared;
    }
  return prepareUser({ username: random, password: null });
}

async function createUserFor(ctx: ServiceContext, account: ExternalAccount, aff: string): Promise<number> {
  if (!ctx.options.bool("RegisterEnabled")) refuse(REGISTRATION_CLOSED);
  const column = OAUTH_PROVIDERS[account.provider].column;
  for (let attempt = 0; ; attempt++) {
    const prepared = await newUserFor(attempt === 0 ? account : { ...account, username: undefined });
    prepared[column] = account.id;
    try {
      return await insertWithGrants(ctx, prepared, aff);
    } catch (error) {
      // A taken name: the next attempt takes a random one.
      if (!(error instanceof ServiceError) || attempt >= 3) throw error;
    }
  }
}

/**
 * Binds the account to `bindTo` when set (a user who asked for it), else signs in the user bound to it,
 * creating one when registration is open (`aff` honoured). An account bound to someone else is refused.
 */
export async function completeSignIn(
  ctx: ServiceContext,
  account: ExternalAccount,
  { aff, bindTo }: { aff: string; bindTo?: UserRow },
): Promise<SignInOutcome> {
  const column = OAUTH_PROVIDERS[account.provider].column;
  if (!account.id) refuse(`${OAUTH_PROVIDERS[account.provider].name} did not name the account`);
  const holder = await findUserByExternalId(ctx.db, column, account.id);
  if (bindTo) {
    if (holder && holder.id !== bindTo.id) refuse(ALREADY_BOUND);
    await changeUser(ctx, bindTo.id, { [column]: account.id });
    return { kind: "bound" };
  }
  const userId = holder ? holder.id : await createUserFor(ctx, account, aff);
  const user = holder ?? (await ctx.users.get(userId));
  if (!user || user.deleted_at !== null || user.status !== UserStatus.Enabled) return refuse(BANNED);
  await changeUser(ctx, user.id, { last_login_at: nowSeconds() });
  return { kind: "signed-in", user, sessionId: await ctx.sessions.create(user.id) };
}
