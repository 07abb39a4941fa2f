import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** Times are unix seconds; booleans are 0/1; JSON is text; money is integer quota. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** The username's look-alike form (src/service/users/names.ts); NULL until filled in at start-up. */
  username_key: string | null;
  password: string;
  display_name: Generated<string>;
  role: Generated<number>;
  status: Generated<number>;
  email: string | null;
  github_id: Generated<string>;
  wechat_id: Generated<string>;
  telegram_id: Generated<string>;
  linux_do_id: Generated<string>;
  oidc_id: Generated<string>;
  access_token_hash: string | null;
  quota: Generated<number>;
  /** The part of `quota` running instances have leased (src/service/billing/leases.ts). */
  leased_quota: Generated<number>;
  used_quota: Generated<number>;
  request_count: Generated<number>;
  group: Generated<string>;
  aff_code: string;
  aff_count: Generated<number>;
  aff_quota: Generated<number>;
  aff_history_quota: Generated<number>;
  inviter_id: Generated<number>;
  setting: Generated<string>;
  remark: Generated<string>;
  created_at: number;
  last_login_at: Generated<number>;
  deleted_at: number | null;
  /** The TOTP secret, sealed at rest ("enc:v1:…"); empty when two-factor sign-in is off. */
  totp_secret: Generated<string>;
  /** JSON list of the unused recovery codes' keyed hashes; NULL when two-factor sign-in is off. */
  totp_recovery: string | null;
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  totp_last_step: Generated<number>;
  /** When the low-balance reminder was last mailed (unix seconds). */
  quota_reminded_at: Generated<number>;
  /** Requests per minute allowed (0: the group default of TrafficLimitGroup, if any). */
  rpm_limit: Generated<number>;
  /** Tokens per minute allowed (0: the group default, if any). */
  tpm_limit: Generated<number>;
}

/** A code or link sent out, by purpose and subject (an email, or a pending sign-in's id); only its hash is kept. */
export interface AccountCodesTable {
  purpose: string;
  subject: string;
  code_hash: string;
  user_id: Generated<number>;
  sent_at: number;
  expires_at: number;
  attempts: Generated<number>;
}

/** Keys usable once until they expire (OAuth states, used Telegram payloads). */
export interface OneTimeKeysTable {
  key: string;
  value: string;
  expires_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface SetupsTable {
  id: Generated<number>;
  version: string;
  initialized_at: number;
}

/** Server-private state (generated secrets, change counters); never exposed through the API. */
export interface InternalsTable {
  key: string;
  value: string;
}

export interface LogsTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  type: number;
  content: Generated<string>;
  username: Generated<string>;
  token_name: Generated<string>;
  model_name: Generated<string>;
  quota: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  use_time: Generated<number>;
  is_stream: Generated<number>;
  channel_id: Generated<number>;
  token_id: Generated<number>;
  group: Generated<string>;
  ip: Generated<string>;
  request_id: Generated<string>;
  other: Generated<string>;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: number;
  key: string;
  openai_organization: Generated<string>;
  test_model: Generated<string>;
  status: Generated<number>;
  name: string;
  weight: Generated<number>;
  created_time: number;
  test_time: Generated<number>;
  response_time: Generated<number>;
  base_url: Generated<string>;
  other: Generated<string>;
  balance: Generated<number>;
  balance_updated_time: Generated<number>;
  models: string;
  group: Generated<string>;
  used_quota: Generated<number>;
  model_mapping: Generated<string>;
  status_code_mapping: Generated<string>;
  priority: Generated<number>;
  auto_ban: Generated<number>;
  /** JSON: {status_reason, status_time} when auto-disabled. */
  other_info: Generated<string>;
  tag: Generated<string>;
  setting: Generated<string>;
  remark: Generated<string>;
  /** JSON: a multi-key channel's keys' state (src/service/channels/multi-key.ts); '' for a single key. */
  channel_info: Generated<string>;
  /** JSON object merged into the upstream request body, last; '' for none. */
  param_override: Generated<string>;
  /** JSON object of extra upstream headers ("{client_header:NAME}" copies a client header); '' for none. */
  header_override: Generated<string>;
}

/** One row per group × model a channel serves; kept in step with the channel. */
export interface AbilitiesTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: number;
  priority: number;
  weight: number;
  tag: Generated<string>;
}

/** Access tokens: the key is kept as a keyed hash (lookup) and sealed (AES-GCM) for its owner's 'view key'. */
export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  key_hash: string;
  key_sealed: string;
  key_masked: string;
  status: Generated<number>;
  name: Generated<string>;
  created_time: number;
  accessed_time: Generated<number>;
  expired_time: Generated<number>;
  remain_quota: Generated<number>;
  /** The part of `remain_quota` running instances have leased. */
  leased_quota: Generated<number>;
  unlimited_quota: Generated<number>;
  model_limits_enabled: Generated<number>;
  model_limits: Generated<string>;
  allow_ips: Generated<string>;
  used_quota: Generated<number>;
  group: Generated<string>;
  cross_group_retry: Generated<number>;
  deleted_at: number | null;
  /** Requests per minute allowed (0: no limit). */
  rpm_limit: Generated<number>;
  /** Tokens per minute allowed (0: no limit). */
  tpm_limit: Generated<number>;
}

export interface RedemptionsTable {
  id: Generated<number>;
  /** The admin who created the code. */
  user_id: number;
  key: string;
  /** 1 unused, 2 disabled, 3 used. */
  status: Generated<number>;
  name: Generated<string>;
  quota: Generated<number>;
  created_time: number;
  redeemed_time: Generated<number>;
  used_user_id: Generated<number>;
  /** 0 = never. */
  expired_time: Generated<number>;
  deleted_at: number | null;
}

/** Online payment orders; only pending → success credits the user, once. */
export interface TopUpsTable {
  id: Generated<number>;
  user_id: number;
  /** Quota units (or display units, see the wallet service) bought. */
  amount: number;
  money: number;
  trade_no: string;
  payment_method: Generated<string>;
  payment_provider: Generated<string>;
  create_time: number;
  complete_time: Generated<number>;
  /** pending | success | failed | expired */
  status: Generated<string>;
}

/** Consumption rolled up per (user, model, hour). */
export interface QuotaDataTable {
  id: Generated<number>;
  user_id: number;
  username: Generated<string>;
  model_name: Generated<string>;
  /** The hour, as the unix time of its start. */
  created_at: number;
  token_used: Generated<number>;
  count: Generated<number>;
  quota: Generated<number>;
}

export interface MidjourneysTable {
  id: Generated<number>;
  code: Generated<number>;
  user_id: number;
  action: Generated<string>;
  mj_id: Generated<string>;
  prompt: Generated<string>;
  prompt_en: Generated<string>;
  description: Generated<string>;
  state: Generated<string>;
  submit_time: Generated<number>;
  start_time: Generated<number>;
  finish_time: Generated<number>;
  image_url: Generated<string>;
  status: Generated<string>;
  progress: Generated<string>;
  fail_reason: Generated<string>;
  channel_id: Generated<number>;
  quota: Generated<number>;
  buttons: Generated<string>;
  properties: Generated<string>;
  /** The token that paid (0: none); a refund goes back to it. */
  token_id: Generated<number>;
}

export interface TasksTable {
  id: Generated<number>;
  created_at: number;
  updated_at: number;
  task_id: Generated<string>;
  platform: Generated<string>;
  user_id: number;
  group: Generated<string>;
  channel_id: Generated<number>;
  quota: Generated<number>;
  action: Generated<string>;
  status: Generated<string>;
  fail_reason: Generated<string>;
  submit_time: Generated<number>;
  start_time: Generated<number>;
  finish_time: Generated<number>;
  progress: Generated<string>;
  properties: Generated<string>;
  data: Generated<string>;
  /** The token that paid (0: none); a refund goes back to it. */
  token_id: Generated<number>;
}

/** One instance's lease on a balance: `side` 0 is a user's quota, 1 a limited token's remain. */
export interface QuotaLeasesTable {
  holder: string;
  side: number;
  account_id: number;
  amount: number;
  /** Unix milliseconds of the holder's last renewal. */
  renewed_at: number;
}

/** A streamed row an import gave another id, its own being taken (see migration 012). */
export interface ImportRenumberedTable {
  /** The Tollgate table: logs, tasks or midjourneys. */
  table_name: string;
  source_id: number;
  target_id: number;
}

export interface Tables {
  users: UsersTable;
  sessions: SessionsTable;
  one_time_keys: OneTimeKeysTable;
  account_codes: AccountCodesTable;
  options: OptionsTable;
  setups: SetupsTable;
  internals: InternalsTable;
  logs: LogsTable;
  channels: ChannelsTable;
  abilities: AbilitiesTable;
  tokens: TokensTable;
  redemptions: RedemptionsTable;
  top_ups: TopUpsTable;
  quota_data: QuotaDataTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  quota_leases: QuotaLeasesTable;
  import_renumbered: ImportRenumberedTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserPatch = Updateable<UsersTable>;
export type LogRow = Selectable<LogsTable>;
export type NewLogRow = Insertable<LogsTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type NewChannelRow = Insertable<ChannelsTable>;
export type ChannelPatch = Updateable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewTokenRow = Insertable<TokensTable>;
export type TokenPatch = Updateable<TokensTable>;
export type RedemptionRow = Selectable<RedemptionsTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type QuotaDataRow = Selectable<QuotaDataTable>;
export type MidjourneyRow = Selectable<MidjourneysTable>;
export type TaskRow = Selectable<TasksTable>;
