import { findLiveUserByAccessToken } from "../../db/queries/users";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { keyedHash } from "../crypto";

export type Credential = { kind: "session"; sessionId: string } | { kind: "access-token"; token: string };

/** The live user behind a session or a system access token, or undefined. */
export async function userOfCredential(ctx: ServiceContext, credential: Credential): Promise<UserRow | undefined> {
  if (credential.kind === "session") {
    const userId = await ctx.sessions.userOf(credential.sessionId);
    if (userId === undefined) return undefined;
    const user = await ctx.users.get(userId);
    return user && user.deleted_at === null ? user : undefined;
  }
  return findLiveUserByAccessToken(ctx.db, keyedHash(ctx.secret, credential.token));
}
