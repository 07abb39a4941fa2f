import type { TokenRow } from "../../db/schema";
import { effectiveStatus } from "./status";

/** A token as the API shows it: an allow-list, with the key masked; the hash and the sealed key never leave. */
export interface TokenView {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  cross_group_retry: boolean;
}

export function toTokenView(t: TokenRow, now: number): TokenView {
  return {
    id: t.id,
    user_id: t.user_id,
    name: t.name,
    key: t.key_masked,
    status: effectiveStatus(t, now),
    created_time: t.created_time,
    accessed_time: t.accessed_time,
    expired_time: t.expired_time,
    remain_quota: t.remain_quota,
    unlimited_quota: Boolean(t.unlimited_quota),
    used_quota: t.used_quota,
    model_limits_enabled: Boolean(t.model_limits_enabled),
    model_limits: t.model_limits,
    allow_ips: t.allow_ips,
    group: t.group,
    cross_group_retry: Boolean(t.cross_group_retry),
  };
}
