import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { NO_PASSWORD } from "../users/password";
import { changeUser, type UserRow } from "../users/directory";
import { isOAuthProvider, OAUTH_PROVIDERS } from "./providers";

export const LAST_SIGN_IN_WAY = "this is your only way to sign in: set a password or bind another account first";

/** The ways `user` can sign in: a password, and each account bound elsewhere. */
export function signInWays(user: UserRow): number {
  const bound = Object.values(OAUTH_PROVIDERS).filter(({ column }) => user[column] !== "").length;
  return bound + (user.password !== NO_PASSWORD ? 1 : 0);
}

/** Removes one binding of one's own account; never the last way to sign in. */
export async function unbind(ctx: ServiceContext, user: UserRow, provider: string): Promise<void> {
  if (!isOAuthProvider(provider)) return refuse("unknown sign-in provider");
  const { column, name } = OAUTH_PROVIDERS[provider];
  if (user[column] === "") refuse(`no ${name} account is bound`);
  if (signInWays(user) <= 1) refuse(LAST_SIGN_IN_WAY);
  await changeUser(ctx, user.id, { [column]: "" });
}
