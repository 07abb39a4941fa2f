/**
 * A token as the API shows it: an allow-list, with the key masked ("sk-abcd**********wxyz"); the reveal
 * route gives it whole, and the hash and the sealed key never leave the server.
 */
export interface TokenView {
  id: number;
  user_id: number;
  name: string;
  key: string;
  status: number;
  created_time: number;
  accessed_time: number;
  /** -1 never. */
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  model_limits_enabled: boolean;
  /** Comma list. */
  model_limits: string;
  /** One per line. */
  allow_ips: string;
  /** "" means the owner's group. */
  group: string;
  cross_group_retry: boolean;
  /** Requests per minute allowed; 0 no limit. */
  rpm_limit: number;
  /** Tokens per minute allowed (a call's estimate held, then its real use); 0 no limit. */
  tpm_limit: number;
}
