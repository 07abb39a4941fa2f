import type { TokenRow, UserRow } from "../../db/schema";
import { Role, UserStatus } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { keyedHash } from "../crypto";
import { usableGroups } from "../groups";
import { nowSeconds } from "../time";
import { ipAllowed } from "./allow-ips";
import { RelayError } from "./errors";

/** Who is calling the relay and through which group; a token-less caller is the console's playground. */
export interface RelayCaller {
  user: UserRow;
  token: TokenRow | null;
  group: string;
  /** An admin's `sk-KEY-<channelId>` pins one channel (no routing, no retry). */
  pinnedChannelId?: number;
}

const unauthorized = (message: string) => new RelayError(401, message, "invalid_api_key", "invalid_request_error");
const forbidden = (message: string, code = "access_denied") => new RelayError(403, message, code, "permission_error");

/** `Authorization: Bearer sk-<48 chars>[-<channel id>]` → the key and the optional channel pin. */
export function parseRelayKey(authorization: string | null): { key: string; pin?: string } | undefined {
  // The usual "Bearer sk-…" is cut without regular expressions (they were a visible part of a call's cost).
  const usual = authorization?.startsWith("Bearer sk-");
  const value = usual
    ? authorization!.slice(10).trim()
    : authorization
        ?.replace(/^Bearer\s+/i, "")
        .trim()
        .replace(/^sk-/, "");
  if (!value) return undefined;
  const [key = "", pin] = value.split("-");
  return key ? { key, pin } : undefined;
}

const keyHashes = new Map<string, Map<string, string>>();

/** The keyed hash of a relay key, remembered: an HMAC per call was ~5 % of the relay's CPU. */
function hashOfKey(secret: string, key: string): string {
  let bySecret = keyHashes.get(secret);
  if (!bySecret) keyHashes.set(secret, (bySecret = new Map()));
  let hash = bySecret.get(key);
  if (hash === undefined) {
    hash = keyedHash(secret, key);
    if (bySecret.size >= 100_000) bySecret.clear();
    bySecret.set(key, hash);
  }
  return hash;
}

function enabledUser(user: UserRow | null | undefined): UserRow {
  if (!user || user.deleted_at !== null || user.status !== UserStatus.Enabled)
    throw forbidden("the user has been banned");
  return user;
}

/** The user, from the cache when it holds them (no wait), refused when banned or gone. */
function liveUser(ctx: ServiceContext, id: number): UserRow | Promise<UserRow> {
  const held = ctx.users.peek(id);
  return held === undefined ? ctx.users.get(id).then(enabledUser) : enabledUser(held);
}

/** The group a call uses: the token's when set (it must be one the user may use), else the user's. */
export function usingGroup(ctx: ServiceContext, user: UserRow, requested: string): string {
  if (!requested) return user.group;
  if (!(requested in usableGroups(ctx, user.group))) throw forbidden(`no permission to use group ${requested}`);
  return requested;
}

/**
 * Relay token auth, in the order: key, token state, allowed IPs, user, group, channel pin. Answers at
 * once when the token and its user are cached (the relay's usual case); a refusal may be thrown directly.
 */
export function authenticateRelayKey(
  ctx: ServiceContext,
  authorization: string | null,
  clientIp: string,
): RelayCaller | Promise<RelayCaller> {
  const parsed = parseRelayKey(authorization);
  if (!parsed) throw unauthorized("no API key provided: send Authorization: Bearer sk-...");
  const hash = hashOfKey(ctx.secret, parsed.key);
  const held = ctx.relay.tokens.peek(hash);
  if (held === undefined)
    return ctx.relay.tokens.get(hash).then((token) => callerOfToken(ctx, parsed.pin, token, clientIp));
  return callerOfToken(ctx, parsed.pin, held, clientIp);
}

function callerOfToken(
  ctx: ServiceContext,
  pin: string | undefined,
  token: TokenRow | null | undefined,
  clientIp: string,
): RelayCaller | Promise<RelayCaller> {
  if (!token) throw unauthorized("invalid API key");
  if (token.status === 2) throw unauthorized("this API key is disabled");
  if (token.status === 3 || (token.expired_time !== -1 && token.expired_time < nowSeconds())) {
    throw unauthorized("this API key has expired");
  }
  if (token.status === 4 || (!token.unlimited_quota && token.remain_quota <= 0)) {
    throw unauthorized("this API key's quota is exhausted");
  }
  if (token.status !== 1) throw unauthorized("this API key is not enabled");
  if (!ipAllowed(token.allow_ips, clientIp)) throw forbidden("your IP address is not allowed to use this API key");
  const found = liveUser(ctx, token.user_id);
  return found instanceof Promise
    ? found.then((user) => callerOfUser(ctx, pin, token, user))
    : callerOfUser(ctx, pin, token, found);
}

function callerOfUser(ctx: ServiceContext, pin: string | undefined, token: TokenRow, user: UserRow): RelayCaller {
  const group = usingGroup(ctx, user, token.group);
  if (pin === undefined) return { user, token, group };
  if (user.role < Role.Admin) throw forbidden("ordinary users cannot choose a channel");
  const pinnedChannelId = Number(pin);
  if (!Number.isSafeInteger(pinnedChannelId) || pinnedChannelId <= 0) {
    throw new RelayError(400, "invalid channel id", "invalid_request", "invalid_request_error");
  }
  return { user, token, group, pinnedChannelId };
}

/** The playground: a signed-in user, no token; any of the user's usable groups may be picked per call. */
export async function playgroundCaller(
  ctx: ServiceContext,
  userId: number,
  requestedGroup: string,
): Promise<RelayCaller> {
  const user = await liveUser(ctx, userId);
  return { user, token: null, group: usingGroup(ctx, user, requestedGroup) };
}

/** A token's model allow-list (when enabled), checked against the requested model. */
export function checkModelAllowed(token: TokenRow | null, model: string): void {
  if (!token?.model_limits_enabled) return;
  const allowed = token.model_limits
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  if (allowed.length === 0) throw forbidden("this API key has no access to any model");
  if (!allowed.includes(model)) throw forbidden(`this API key has no access to model ${model}`);
}
