import { logRowsByIds, pageLogPlaces } from "../../db/queries/logs";
import { readTokenQuota } from "../../db/queries/relay-tokens";
import type { TokenRow, UserRow } from "../../db/schema";
import { UserStatus } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { logViewOf, type LogView } from "../logs/view";
import { findTokenByKey } from "./lookup";

/** The newest rows GET /api/log/token answers with. */
export const KEY_LOG_ROWS = 100;

export const TOKEN_NOT_PROVIDED = "Token not provided";
export const INVALID_TOKEN = "Invalid token";

/**
 * Read-only key auth of balance checkers (compat §2.2): `Authorization: Bearer <key>` (with or without "sk-")
 * naming a key that exists, whatever its status; its user must not be banned.
 */
async function keyOwner(
  ctx: ServiceContext,
  authorization: string | null,
): Promise<{ token: TokenRow; user: UserRow }> {
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (!bearer) return refuse(TOKEN_NOT_PROVIDED, 401);
  const raw = bearer.replace(/^sk-/, "").split("-")[0] ?? "";
  const token = await findTokenByKey(ctx, raw);
  if (!token) return refuse(INVALID_TOKEN, 401);
  const user = await ctx.users.get(token.user_id);
  if (!user || user.deleted_at !== null || user.status !== UserStatus.Enabled) refuse("User has been banned", 403);
  return { token, user: user! };
}

export interface KeyUsage {
  object: "token_usage";
  name: string;
  total_granted: number;
  total_used: number;
  total_available: number;
  unlimited_quota: boolean;
  model_limits: Record<string, true>;
  model_limits_enabled: boolean;
  expires_at: number;
}

/** GET /api/usage/token: the key's granted, used and available quota (charges still queued are written first). */
export async function keyUsage(ctx: ServiceContext, authorization: string | null): Promise<KeyUsage> {
  const { token } = await keyOwner(ctx, authorization);
  await ctx.relay.book.flush();
  const quota = (await readTokenQuota(ctx.db, token.id)) ?? token;
  const models = token.model_limits
    .split(",")
    .map((m) => m.trim())
    .filter(Boolean);
  return {
    object: "token_usage",
    name: token.name,
    total_granted: quota.remain_quota + quota.used_quota,
    total_used: quota.used_quota,
    total_available: quota.remain_quota,
    unlimited_quota: token.unlimited_quota === 1,
    model_limits: Object.fromEntries(models.map((m) => [m, true as const])),
    model_limits_enabled: token.model_limits_enabled === 1,
    expires_at: token.expired_time === -1 ? 0 : token.expired_time,
  };
}

/** GET /api/log/token: the newest log rows of the key, as its owner sees them (no channel details). */
export async function keyLogs(ctx: ServiceContext, authorization: string | null): Promise<LogView[]> {
  const { token, user } = await keyOwner(ctx, authorization);
  await ctx.relay.book.flush();
  const filter = { userId: user.id, tokenId: token.id };
  const places = await pageLogPlaces(ctx.db, filter, { limit: KEY_LOG_ROWS });
  const rows = await logRowsByIds(
    ctx.db,
    places.map((p) => p.id),
  );
  return rows.map(logViewOf("own"));
}
