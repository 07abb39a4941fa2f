import type { ChargeTotals } from "../../db/queries/charges";
import type { NewLogRow } from "../../db/schema";

/** A settled call waiting to be written: its cost and its log row, stored together or not at all. */
export interface Charge {
  userId: number;
  /** 0 when no token paid (playground, channel test). */
  tokenId: number;
  tokenUnlimited: boolean;
  channelId: number;
  quota: number;
  /** Whether the user's quota is debited (a channel test logs a cost without charging it). */
  debit: boolean;
  log: NewLogRow | null;
}

/** Sums a batch of charges per user, token and channel, so one UPDATE per row does. */
export function totalCharges(charges: Charge[]): ChargeTotals {
  const totals: ChargeTotals = { users: new Map(), tokens: new Map(), channels: new Map(), logs: [] };
  for (const c of charges) {
    if (c.log) totals.logs.push(c.log);
    if (!c.debit) continue;
    const user = totals.users.get(c.userId) ?? { quota: 0, used: 0, requests: 0 };
    user.quota -= c.quota;
    user.used += c.quota;
    user.requests += 1;
    totals.users.set(c.userId, user);
    if (c.tokenId) {
      const token = totals.tokens.get(c.tokenId) ?? { remain: 0, used: 0 };
      if (!c.tokenUnlimited) token.remain -= c.quota;
      token.used += c.quota;
      totals.tokens.set(c.tokenId, token);
    }
    if (c.channelId) totals.channels.set(c.channelId, (totals.channels.get(c.channelId) ?? 0) + c.quota);
  }
  return totals;
}
