import type { TokenRow, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { usableGroups } from "../groups";
import { isExhausted, isExpired } from "./status";

export const CANNOT_ENABLE_EXPIRED =
  "the token has expired: extend its expiry time or make it never expire before enabling it";
export const CANNOT_ENABLE_EXHAUSTED =
  "the token's quota is used up: raise its remaining quota or make it unlimited before enabling it";

/** "" means the owner's own group at the time of each request. */
export function requireUsableGroup(ctx: ServiceContext, owner: UserRow, group: string): void {
  if (group && !Object.hasOwn(usableGroups(ctx, owner.group), group))
    refuse(`group "${group}" is not available to you`);
}

export function requireFutureExpiry(expiredTime: number, now: number): void {
  if (expiredTime !== -1 && expiredTime <= now) refuse("expired_time must be in the future, or -1 for never");
}

/** Enabling must leave a token that works. */
export function requireEnableable(token: TokenRow, now: number): void {
  if (isExpired(token, now)) refuse(CANNOT_ENABLE_EXPIRED);
  if (isExhausted(token)) refuse(CANNOT_ENABLE_EXHAUSTED);
}
