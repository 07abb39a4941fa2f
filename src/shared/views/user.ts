/** A user as the API shows it (the admin routes and /api/user/self): an allow-list, so hashes and tokens never leave the server. */
export interface UserView {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  oidc_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  remark: string;
  /** Requests per minute allowed; 0: the group's default (TrafficLimitGroup), else none. */
  rpm_limit: number;
  /** Tokens per minute allowed; 0: the group's default, else none. */
  tpm_limit: number;
  created_at: number;
  last_login_at: number;
  /** Set once the user is deleted (soft delete); null while they exist. */
  DeletedAt: number | null;
}
