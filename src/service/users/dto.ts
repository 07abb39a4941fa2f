import type { UserRow } from "../../db/schema";
import type { UserView } from "../../shared/views/user";

export type { UserView } from "../../shared/views/user";

export function toUserView(u: UserRow): UserView {
  return {
    id: u.id,
    username: u.username,
    display_name: u.display_name,
    role: u.role,
    status: u.status,
    email: u.email ?? "",
    github_id: u.github_id,
    wechat_id: u.wechat_id,
    telegram_id: u.telegram_id,
    linux_do_id: u.linux_do_id,
    oidc_id: u.oidc_id,
    quota: u.quota,
    used_quota: u.used_quota,
    request_count: u.request_count,
    group: u.group,
    aff_code: u.aff_code,
    aff_count: u.aff_count,
    aff_quota: u.aff_quota,
    aff_history_quota: u.aff_history_quota,
    inviter_id: u.inviter_id,
    remark: u.remark,
    rpm_limit: u.rpm_limit,
    tpm_limit: u.tpm_limit,
    created_at: u.created_at,
    last_login_at: u.last_login_at,
    DeletedAt: u.deleted_at,
  };
}

/** What the login reply and the console's local user record hold. */
export const toLoginView = (u: UserRow) => ({
  id: u.id,
  username: u.username,
  display_name: u.display_name,
  role: u.role,
  status: u.status,
  group: u.group,
});
