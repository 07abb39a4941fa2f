/** GET /api/user/self, the fields the personal tab shows. */
export interface SelfUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  group: string;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  oidc_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
}
