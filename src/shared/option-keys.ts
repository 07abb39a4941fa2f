/** What a site option holds; the server's registry (src/service/options/registry.ts) validates each kind. */
export type OptionKind =
  | "bool"
  | "int"
  | "float"
  | "choice"
  | "string"
  | "text"
  | "address"
  | "comma-list"
  | "status-codes"
  | "json"
  /** Addresses, CIDR ranges and host names (src/service/egress/allow-list.ts). */
  | "allow-list";

/**
 * Every site option by key, with its kind: the one list that the server's registry, the readers of options and
 * the console's settings cards are checked against, so a misspelled key is a compile error on every side.
 */
export const OPTION_KINDS = {
  // Content
  Notice: "text",
  SystemName: "string",
  Logo: "string",
  HomePageContent: "text",
  About: "text",
  Footer: "text",
  // Addresses and payment
  ServerAddress: "address",
  WorkerUrl: "address",
  WorkerValidKey: "string",
  PayAddress: "address",
  EpayId: "string",
  EpayKey: "string",
  CustomCallbackAddress: "address",
  Price: "float",
  MinTopUp: "int",
  TopupGroupRatio: "json",
  PayMethods: "json",
  // Switches
  PasswordLoginEnabled: "bool",
  PasswordRegisterEnabled: "bool",
  EmailVerificationEnabled: "bool",
  RegisterEnabled: "bool",
  GitHubOAuthEnabled: "bool",
  LinuxDOOAuthEnabled: "bool",
  WeChatAuthEnabled: "bool",
  TelegramOAuthEnabled: "bool",
  TurnstileCheckEnabled: "bool",
  EmailDomainRestrictionEnabled: "bool",
  EmailAliasRestrictionEnabled: "bool",
  SMTPSSLEnabled: "bool",
  TwoFactorRequiredForAdmins: "bool",
  // Email
  EmailDomainWhitelist: "comma-list",
  SMTPServer: "string",
  SMTPPort: "int",
  SMTPAccount: "string",
  SMTPFrom: "string",
  SMTPToken: "string",
  // Third-party login
  GitHubClientId: "string",
  GitHubClientSecret: "string",
  WeChatServerAddress: "address",
  WeChatServerToken: "string",
  WeChatAccountQRCodeImageURL: "string",
  TelegramBotToken: "string",
  TelegramBotName: "string",
  TurnstileSiteKey: "string",
  TurnstileSecretKey: "string",
  LinuxDOClientId: "string",
  LinuxDOClientSecret: "string",
  GitHubBaseUrl: "address",
  GitHubApiBaseUrl: "address",
  LinuxDOAuthorizeEndpoint: "address",
  LinuxDOTokenEndpoint: "address",
  LinuxDOUserEndpoint: "address",
  LinuxDOMinimumTrustLevel: "int",
  OIDCEnabled: "bool",
  OIDCClientId: "string",
  OIDCClientSecret: "string",
  OIDCWellKnown: "address",
  // Display
  TopUpLink: "string",
  ChatLink: "string",
  ChatLink2: "string",
  QuotaPerUnit: "float",
  RetryTimes: "int",
  USDExchangeRate: "float",
  DisplayInCurrencyEnabled: "bool",
  QuotaDisplayCurrency: "choice",
  RelayErrorLanguage: "choice",
  DisplayTokenStatEnabled: "bool",
  DefaultCollapseSidebar: "bool",
  DemoSiteEnabled: "bool",
  SelfUseModeEnabled: "bool",
  // Drawing and tasks
  DrawingEnabled: "bool",
  TaskEnabled: "bool",
  MjNotifyEnabled: "bool",
  MjAccountFilterEnabled: "bool",
  MjForwardUrlEnabled: "bool",
  MjModeClearEnabled: "bool",
  MjActionCheckSuccessEnabled: "bool",
  // Sensitive words
  CheckSensitiveEnabled: "bool",
  CheckSensitiveOnPromptEnabled: "bool",
  StopOnSensitiveEnabled: "bool",
  SensitiveWords: "text",
  // Logs and dashboard
  LogConsumeEnabled: "bool",
  ErrorLogEnabled: "bool",
  DataExportEnabled: "bool",
  DataExportInterval: "int",
  DataExportDefaultTime: "choice",
  LogRetentionDays: "int",
  // Monitoring
  ChannelDisableThreshold: "float",
  QuotaRemindThreshold: "int",
  AutomaticDisableChannelEnabled: "bool",
  AutomaticEnableChannelEnabled: "bool",
  AutoTestChannelMinutes: "int",
  AutomaticDisableKeywords: "text",
  AutomaticDisableStatusCodes: "status-codes",
  AutomaticRetryStatusCodes: "status-codes",
  // Quota
  QuotaForNewUser: "int",
  PreConsumedQuota: "int",
  QuotaForInviter: "int",
  QuotaForInvitee: "int",
  // Per-user model request rate limit
  ModelRequestRateLimitEnabled: "bool",
  ModelRequestRateLimitDurationMinutes: "int",
  ModelRequestRateLimitCount: "int",
  ModelRequestRateLimitSuccessCount: "int",
  ModelRequestRateLimitGroup: "json",
  // Per-group default requests and tokens per minute of a user
  TrafficLimitGroup: "json",
  // Groups and prices
  Chats: "json",
  GroupRatio: "json",
  UserUsableGroups: "json",
  GroupGroupRatio: "json",
  AutoGroups: "json",
  DefaultUseAutoGroup: "bool",
  ModelPrice: "json",
  ModelRatio: "json",
  CompletionRatio: "json",
  CacheRatio: "json",
  CreateCacheRatio: "json",
  // Upstream address policy
  UpstreamAllowedPrivateRanges: "allow-list",
  UpstreamAllowLinkLocal: "bool",
} as const satisfies Record<string, OptionKind>;

export type OptionKey = keyof typeof OPTION_KINDS;

/** The keys whose options are of one of the `kinds`. */
export type OptionKeyOfKind<Kinds extends OptionKind> = {
  [Key in OptionKey]: (typeof OPTION_KINDS)[Key] extends Kinds ? Key : never;
}[OptionKey];

export type BoolOptionKey = OptionKeyOfKind<"bool">;
export type NumberOptionKey = OptionKeyOfKind<"int" | "float">;
export type JsonOptionKey = OptionKeyOfKind<"json">;
export type ChoiceOptionKey = OptionKeyOfKind<"choice">;
/** Options edited as plain text: everything but switches, numbers, choices and JSON. */
export type TextOptionKey = Exclude<OptionKey, BoolOptionKey | NumberOptionKey | JsonOptionKey | ChoiceOptionKey>;

/** One option as GET /api/option/ lists it, and as the console saves it with PUT /api/option/. */
export interface OptionEntry {
  key: OptionKey;
  value: string;
}

/** Narrows a key that came from outside (a request body, a file, the command line); own keys only, so never "constructor". */
export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTION_KINDS, key);
