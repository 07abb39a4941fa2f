import type { TokenRow } from "../../db/schema";

export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;

type Limits = Pick<TokenRow, "expired_time" | "unlimited_quota" | "remain_quota">;

export const isExpired = (token: Limits, now: number): boolean => token.expired_time !== -1 && token.expired_time < now;

export const isExhausted = (token: Limits): boolean => !token.unlimited_quota && token.remain_quota <= 0;

/** The status as it stands now: an enabled token past its expiry or out of quota no longer works. */
export function effectiveStatus(token: Limits & Pick<TokenRow, "status">, now: number): number {
  if (token.status !== TokenStatus.Enabled) return token.status;
  if (isExpired(token, now)) return TokenStatus.Expired;
  if (isExhausted(token)) return TokenStatus.Exhausted;
  return TokenStatus.Enabled;
}
