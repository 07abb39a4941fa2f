import type { TokenRow } from "../../db/schema";
import type { TokenView } from "../../shared/views/token";
import { effectiveStatus } from "./status";

export type { TokenView } from "../../shared/views/token";

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
    rpm_limit: t.rpm_limit,
    tpm_limit: t.tpm_limit,
  };
}
