import type { TokenView } from "../../../shared/views/token";
import { formatDateTime, parseDateTime } from "../../date-time";
import { isLimitText } from "../../components/form/RateLimitFields";

/** The token drawer's values as typed. */
export interface TokenDraft {
  name: string;
  /** yyyy-MM-dd HH:mm:ss, or blank for never. */
  expiry: string;
  remain_quota: string;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  group: string;
  rpm_limit: string;
  tpm_limit: string;
  /** Create only: how many alike. */
  count: string;
}

/** Spec §9: a new token's quota. */
export const DEFAULT_TOKEN_QUOTA = 500000;
export const BATCH_COUNTS = [10, 20, 30, 100];
const HOUR = 3600;
/** Expiry presets in seconds from now; 0 is never. */
export const EXPIRY_PRESETS = { never: 0, hour: HOUR, day: 24 * HOUR, month: 30 * 24 * HOUR, minute: 60 } as const;

export const newTokenDraft = (group: string): TokenDraft => ({
  name: "",
  expiry: "",
  remain_quota: String(DEFAULT_TOKEN_QUOTA),
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: [],
  allow_ips: "",
  group,
  rpm_limit: "0",
  tpm_limit: "0",
  count: "1",
});

export const tokenDraftOf = (token: TokenView): TokenDraft => ({
  name: token.name,
  expiry: token.expired_time === -1 ? "" : formatDateTime(token.expired_time),
  remain_quota: String(token.remain_quota),
  unlimited_quota: token.unlimited_quota,
  model_limits_enabled: token.model_limits_enabled,
  model_limits: token.model_limits.split(",").filter(Boolean),
  allow_ips: token.allow_ips,
  group: token.group,
  rpm_limit: String(token.rpm_limit),
  tpm_limit: String(token.tpm_limit),
  count: "1",
});

/** The expiry text a preset gives, from `now` (seconds). */
export const expiryAfter = (seconds: number, now = Math.floor(Date.now() / 1000)) =>
  seconds === 0 ? "" : formatDateTime(now + seconds);

/** -1 for never (blank or "-1"), a unix time, or NaN when the text is no date. */
export const expiryOf = (text: string): number =>
  text.trim() === "" || text.trim() === "-1" ? -1 : parseDateTime(text);

const isWhole = (text: string) => /^\s*-?\d+\s*$/.test(text);

export type TokenProblem = "name" | "expiry" | "quota" | "limits" | "count";

/** The first rule of spec §5 the draft breaks. */
export function tokenProblem(d: TokenDraft, creating: boolean): TokenProblem | undefined {
  if (!d.name.trim()) return "name";
  if (Number.isNaN(expiryOf(d.expiry))) return "expiry";
  if (!d.unlimited_quota && !isWhole(d.remain_quota)) return "quota";
  if (!isLimitText(d.rpm_limit) || !isLimitText(d.tpm_limit)) return "limits";
  if (creating && !(isWhole(d.count) && Number(d.count) >= 1)) return "count";
  return undefined;
}

/** The body of POST or PUT /api/token/. */
export function tokenBodyOf(d: TokenDraft, creating: boolean) {
  const body = {
    name: d.name.trim(),
    expired_time: expiryOf(d.expiry),
    remain_quota: d.unlimited_quota && !isWhole(d.remain_quota) ? 0 : Number(d.remain_quota),
    unlimited_quota: d.unlimited_quota,
    model_limits_enabled: d.model_limits_enabled,
    model_limits: d.model_limits.join(","),
    allow_ips: d.allow_ips,
    group: d.group,
    rpm_limit: Number(d.rpm_limit),
    tpm_limit: Number(d.tpm_limit),
  };
  return creating ? { ...body, count: Number(d.count) } : body;
}
