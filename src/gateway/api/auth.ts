import type { UserRow } from "../../service/users/directory";
import { userOfCredential, type Credential } from "../../service/accounts/authenticate";
import type { ServiceContext } from "../../service/context";
import { refuseAdminWithoutTwoFactor } from "../../service/accounts/two-factor";
import { ServiceError } from "../../service/errors";
import { Role, UserStatus } from "../../shared/constants";
import { readCookie, SESSION_COOKIE } from "../http/cookies";

export interface Caller {
  user: UserRow;
  credential: Credential;
}

/** The session cookie first, then `Authorization` (raw or Bearer): a stale cookie does not hide a valid token. */
function credentialsOf(request: Request): Credential[] {
  const credentials: Credential[] = [];
  const sessionId = readCookie(request, SESSION_COOKIE);
  if (sessionId) credentials.push({ kind: "session", sessionId });
  const token = request.headers
    .get("authorization")
    ?.trim()
    .replace(/^Bearer\s+/i, "")
    .trim();
  if (token) credentials.push({ kind: "access-token", token });
  return credentials;
}

const unauthorized = (message: string) => new ServiceError(message, 401);

/**
 * Management auth of the dialect: a session cookie or `Authorization: <system access token>`, plus the
 * mandatory `New-Api-User` header naming the same user; then status and role.
 */
export async function authenticate(
  ctx: ServiceContext,
  request: Request,
  minRole: number = Role.Common,
): Promise<Caller> {
  const credentials = credentialsOf(request);
  if (credentials.length === 0) throw unauthorized("Unauthorized, not logged in and no access token provided");
  let caller: Caller | undefined;
  for (const credential of credentials) {
    const user = await userOfCredential(ctx, credential);
    if (user) {
      caller = { user, credential };
      break;
    }
  }
  if (!caller) {
    if (credentials.at(-1)!.kind === "session")
      throw unauthorized("Unauthorized, not logged in or the session has expired");
    throw unauthorized("Unauthorized, the access token is invalid");
  }
  const { user } = caller;
  const claimed = request.headers.get("new-api-user");
  if (claimed === null || claimed.trim() === "") throw unauthorized("Unauthorized, New-Api-User header not provided");
  if (!/^\d+$/.test(claimed.trim())) throw unauthorized("Unauthorized, New-Api-User header format error");
  if (Number(claimed) !== user.id) throw unauthorized("Unauthorized, New-Api-User does not match logged in user");
  if (user.status !== UserStatus.Enabled) throw new ServiceError("User has been banned");
  if (user.role < minRole) throw new ServiceError("Unauthorized, insufficient privileges");
  refuseAdminWithoutTwoFactor(ctx, user, minRole);
  return caller;
}
