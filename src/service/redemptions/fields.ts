import type { RedemptionRow } from "../../db/schema";
import { QUOTA_PER_UNIT } from "../../shared/constants";
import { quotaText } from "../quota-text";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { integerOf, textOf, withinLength, type Input } from "../input";

export const NAME_MAX = 20;
export const MAX_QUOTA = 1_000_000 * QUOTA_PER_UNIT;

/** What an administrator sets on a code. */
export type RedemptionFields = Pick<RedemptionRow, "name" | "quota" | "expired_time">;

/** The console's defaults for a new code: 100000 quota, never expires; a blank name is filled in. */
export const NEW_CODE_FIELDS: RedemptionFields = { name: "", quota: 100_000, expired_time: 0 };

const given = (value: unknown) => value !== undefined && value !== null;

function quotaOf(value: unknown): number {
  const quota = integerOf(value, "quota");
  return quota >= 1 && quota <= MAX_QUOTA ? quota : refuse(`quota must be between 1 and ${MAX_QUOTA}`);
}

/** A changed expiry must be 0 (never) or in the future; an unchanged one stays, even when it has passed. */
function expiryOf(value: unknown, base: number, now: number): number {
  const time = integerOf(value, "expired_time");
  if (time !== base && time !== 0 && time <= now)
    refuse("expired_time must be 0 (never) or a future unix time in seconds");
  return time;
}

/** `base` with each field the body sets, checked; a blank name becomes the formatted quota (1 to 20 characters). */
export function mergeFields(ctx: ServiceContext, input: Input, base: RedemptionFields, now: number): RedemptionFields {
  const quota = given(input.quota) ? quotaOf(input.quota) : base.quota;
  const expired_time = given(input.expired_time)
    ? expiryOf(input.expired_time, base.expired_time, now)
    : base.expired_time;
  const name = (textOf(input, "name") ?? base.name).trim() || quotaText(ctx, quota);
  return { name: withinLength(name, NAME_MAX, "name"), quota, expired_time };
}
