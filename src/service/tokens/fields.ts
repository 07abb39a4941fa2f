import type { TokenRow } from "../../db/schema";
import { QUOTA_PER_UNIT } from "../../shared/constants";
import { refuse } from "../errors";
import { integerOf, limitOf, textOf, withinLength, type Input } from "../input";
import { allowIpsOf } from "./allow-ips";

export const NAME_MAX = 50;
export const MAX_REMAIN_QUOTA = 1_000_000_000 * QUOTA_PER_UNIT;
/** The console's default for a new token: one US dollar. */
export const DEFAULT_REMAIN_QUOTA = QUOTA_PER_UNIT;
/** 9999-12-31; larger values are most likely milliseconds. */
const LATEST_EXPIRY = 253_402_300_799;

/** What a user sets on a token, in the stored shape (flags 0/1). */
export type TokenFields = Pick<
  TokenRow,
  | "name"
  | "remain_quota"
  | "unlimited_quota"
  | "expired_time"
  | "model_limits_enabled"
  | "model_limits"
  | "allow_ips"
  | "group"
  | "cross_group_retry"
  | "rpm_limit"
  | "tpm_limit"
>;

export const NEW_TOKEN_FIELDS: TokenFields = {
  name: "",
  remain_quota: DEFAULT_REMAIN_QUOTA,
  unlimited_quota: 0,
  expired_time: -1,
  model_limits_enabled: 0,
  model_limits: "",
  allow_ips: "",
  group: "",
  cross_group_retry: 0,
  rpm_limit: 0,
  tpm_limit: 0,
};

function flagOf(value: unknown, name: string): number {
  if (value === true || value === 1) return 1;
  if (value === false || value === 0) return 0;
  return refuse(`${name} must be true or false`);
}

function nameOf(text: string): string {
  const name = withinLength(text.trim(), NAME_MAX, "name");
  return name || refuse("name is required");
}

function expiryOf(value: unknown): number {
  const time = integerOf(value, "expired_time");
  if (time !== -1 && (time <= 0 || time > LATEST_EXPIRY))
    refuse("expired_time must be -1 (never) or a unix time in seconds");
  return time;
}

/** A comma list or an array of names: trimmed, blanks and repeats dropped. */
function modelListOf(value: unknown): string {
  const items = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.split(",")
      : refuse("model_limits must be a comma-separated list");
  if (items.some((item) => typeof item !== "string")) refuse("model_limits must list model names");
  return [...new Set((items as string[]).map((item) => item.trim()).filter(Boolean))].join(",");
}

const text = (input: Input, name: string) => textOf(input, name)!;

/** Each settable field: read and checked when the body has it (null counts as absent). */
const READERS: { [F in keyof TokenFields]: (input: Input) => TokenFields[F] } = {
  name: (input) => nameOf(text(input, "name")),
  remain_quota: (input) => integerOf(input.remain_quota, "remain_quota"),
  unlimited_quota: (input) => flagOf(input.unlimited_quota, "unlimited_quota"),
  expired_time: (input) => expiryOf(input.expired_time),
  model_limits_enabled: (input) => flagOf(input.model_limits_enabled, "model_limits_enabled"),
  model_limits: (input) => modelListOf(input.model_limits),
  allow_ips: (input) => allowIpsOf(text(input, "allow_ips")),
  group: (input) => text(input, "group").trim(),
  cross_group_retry: (input) => flagOf(input.cross_group_retry, "cross_group_retry"),
  rpm_limit: (input) => limitOf(input.rpm_limit, "rpm_limit"),
  tpm_limit: (input) => limitOf(input.tpm_limit, "tpm_limit"),
};

/**
 * `base` with every field the body sets, each checked. The quota range applies unless the quota is unlimited,
 * and only to a changed quota: spending may leave a stored one below 0, which must not block a rename.
 */
export function mergeFields(input: Input, base: TokenFields): TokenFields {
  const fields: Record<string, unknown> = { ...base };
  for (const [name, read] of Object.entries(READERS)) {
    if (input[name] !== undefined && input[name] !== null) fields[name] = read(input);
  }
  const merged = fields as TokenFields;
  if (!merged.name) refuse("name is required");
  const quotaChanged = merged.remain_quota !== base.remain_quota || merged.unlimited_quota !== base.unlimited_quota;
  if (quotaChanged && !merged.unlimited_quota && (merged.remain_quota < 0 || merged.remain_quota > MAX_REMAIN_QUOTA)) {
    refuse(`remain_quota must be between 0 and ${MAX_REMAIN_QUOTA} unless the quota is unlimited`);
  }
  return merged;
}

/** The settable fields of a stored token. */
export const fieldsOf = (row: TokenRow): TokenFields => {
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(READERS)) fields[name] = row[name as keyof TokenFields];
  return fields as TokenFields;
};
