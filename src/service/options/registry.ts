import { QUOTA_PER_UNIT } from "../../shared/constants";
import { DISPLAY_CURRENCIES } from "../../shared/quota-format";
import type { OPTION_KINDS, OptionKey, OptionKind } from "../../shared/option-keys";
import {
  DEFAULT_CACHE_RATIO,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
} from "./default-prices";
import type { JsonShape } from "./json-shapes";

export type { OptionKind } from "../../shared/option-keys";

/** One option's kind, default and rules; its key is where the registry lists it. */
export interface OptionRule<Kind extends OptionKind = OptionKind> {
  kind: Kind;
  /** Stored form of the default value. */
  default: string;
  /** Listed with a blank value; only root can write it, nobody can read it back. */
  secret?: boolean;
  min?: number;
  max?: number;
  choices?: readonly string[];
  shape?: JsonShape;
}

export interface OptionDef extends OptionRule {
  key: OptionKey;
}

const bool = (value: boolean): OptionRule<"bool"> => ({ kind: "bool", default: String(value) });
const int = (value: number, min = 0, max?: number): OptionRule<"int"> => ({
  kind: "int",
  default: String(value),
  min,
  max,
});
const float = (value: number, min = 0): OptionRule<"float"> => ({ kind: "float", default: String(value), min });
const str = (value = ""): OptionRule<"string"> => ({ kind: "string", default: value });
const text = (value = ""): OptionRule<"text"> => ({ kind: "text", default: value });
const secret = (): OptionRule<"string"> => ({ kind: "string", default: "", secret: true });
/** An http(s) base address; stored without trailing slashes. */
const address = (value = ""): OptionRule<"address"> => ({ kind: "address", default: value });
const codes = (value: string): OptionRule<"status-codes"> => ({ kind: "status-codes", default: value });
const json = (shape: JsonShape, value: unknown): OptionRule<"json"> => ({
  kind: "json",
  shape,
  default: JSON.stringify(value),
});

const DEFAULT_DISABLE_KEYWORDS = [
  "Your credit balance is too low",
  "This organization has been disabled.",
  "You exceeded your current quota",
  "Permission denied",
  "The security token included in the request is invalid",
  "The request signature we calculated does not match the signature you provided",
  "Operation not allowed",
  "Your account is not authorized",
].join("\n");

const DEFAULT_EMAIL_DOMAINS =
  "gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com";

/** A rule for every option key of src/shared/option-keys.ts and for no other key, of the kind listed there. */
export type OptionRegistry = { [Key in OptionKey]: OptionRule<(typeof OPTION_KINDS)[Key]> };

/** Every site option of the spec (§3 'Option') and of the dialect's defaults, with its type, default and rules. */
const OPTION_RULES = {
  // Content
  Notice: text(),
  SystemName: str("Tollgate"),
  Logo: str(),
  HomePageContent: text(),
  About: text(),
  Footer: text(),
  // Addresses and payment
  ServerAddress: address(),
  WorkerUrl: address(),
  WorkerValidKey: secret(),
  PayAddress: address(),
  EpayId: str(),
  EpayKey: secret(),
  CustomCallbackAddress: address(),
  Price: float(7.3),
  MinTopUp: int(1, 1),
  TopupGroupRatio: json("ratio-map", { default: 1, vip: 1, svip: 1 }),
  PayMethods: json("object-list", [
    { name: "Alipay", type: "alipay", color: "#1677ff" },
    { name: "WeChat Pay", type: "wxpay", color: "#07c160" },
  ]),
  // Switches
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false),
  RegisterEnabled: bool(true),
  GitHubOAuthEnabled: bool(false),
  LinuxDOOAuthEnabled: bool(false),
  WeChatAuthEnabled: bool(false),
  TelegramOAuthEnabled: bool(false),
  TurnstileCheckEnabled: bool(false),
  EmailDomainRestrictionEnabled: bool(false),
  EmailAliasRestrictionEnabled: bool(false),
  SMTPSSLEnabled: bool(false),
  TwoFactorRequiredForAdmins: bool(false),
  // Email
  EmailDomainWhitelist: { kind: "comma-list", default: DEFAULT_EMAIL_DOMAINS },
  SMTPServer: str(),
  SMTPPort: int(587, 1, 65535),
  SMTPAccount: str(),
  SMTPFrom: str(),
  SMTPToken: secret(),
  // Third-party login
  GitHubClientId: str(),
  GitHubClientSecret: secret(),
  WeChatServerAddress: address(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: str(),
  TelegramBotToken: secret(),
  TelegramBotName: str(),
  TurnstileSiteKey: str(),
  TurnstileSecretKey: secret(),
  LinuxDOClientId: str(),
  LinuxDOClientSecret: secret(),
  GitHubBaseUrl: address("https://github.com"),
  GitHubApiBaseUrl: address("https://api.github.com"),
  LinuxDOAuthorizeEndpoint: address("https://connect.linux.do/oauth2/authorize"),
  LinuxDOTokenEndpoint: address("https://connect.linux.do/oauth2/token"),
  LinuxDOUserEndpoint: address("https://connect.linux.do/api/user"),
  LinuxDOMinimumTrustLevel: int(0, 0, 4),
  OIDCEnabled: bool(false),
  OIDCClientId: str(),
  OIDCClientSecret: secret(),
  OIDCWellKnown: address(),
  // Display
  TopUpLink: str(),
  ChatLink: str(),
  ChatLink2: str(),
  QuotaPerUnit: float(QUOTA_PER_UNIT, 1),
  RetryTimes: int(0),
  USDExchangeRate: float(7.3),
  DisplayInCurrencyEnabled: bool(true),
  QuotaDisplayCurrency: { kind: "choice", default: "USD", choices: DISPLAY_CURRENCIES },
  RelayErrorLanguage: { kind: "choice", default: "en", choices: ["en", "zh"] },
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  DemoSiteEnabled: bool(false),
  SelfUseModeEnabled: bool(false),
  // Drawing and tasks
  DrawingEnabled: bool(true),
  TaskEnabled: bool(true),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(false),
  MjModeClearEnabled: bool(false),
  MjActionCheckSuccessEnabled: bool(true),
  // Sensitive words: on by default as in the dialect, but with no word listed nothing is filtered.
  CheckSensitiveEnabled: bool(true),
  CheckSensitiveOnPromptEnabled: bool(true),
  StopOnSensitiveEnabled: bool(true),
  SensitiveWords: text(),
  // Logs and dashboard
  LogConsumeEnabled: bool(true),
  ErrorLogEnabled: bool(false),
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, 1),
  DataExportDefaultTime: { kind: "choice", default: "hour", choices: ["hour", "day", "week"] },
  LogRetentionDays: int(0),
  // Monitoring
  ChannelDisableThreshold: float(5),
  QuotaRemindThreshold: int(1000),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  AutoTestChannelMinutes: int(10),
  AutomaticDisableKeywords: text(DEFAULT_DISABLE_KEYWORDS),
  AutomaticDisableStatusCodes: codes("401"),
  AutomaticRetryStatusCodes: codes("100-199,300-399,401-407,409-499,500-503,505-523,525-599"),
  // Quota
  QuotaForNewUser: int(0),
  PreConsumedQuota: int(500),
  QuotaForInviter: int(0),
  QuotaForInvitee: int(0),
  // Per-user model request rate limit
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitDurationMinutes: int(1, 1),
  ModelRequestRateLimitCount: int(0),
  ModelRequestRateLimitSuccessCount: int(1000, 1),
  ModelRequestRateLimitGroup: json("limit-pair-map", {}),
  // {"group": [requests per minute, tokens per minute]}: a user's limits when their own are 0.
  TrafficLimitGroup: json("limit-pair-map", {}),
  // Groups and prices
  Chats: json("object-list", []),
  GroupRatio: json("ratio-map", { default: 1, vip: 1, svip: 1 }),
  UserUsableGroups: json("text-map", { default: "Default group", vip: "VIP group" }),
  GroupGroupRatio: json("ratio-map-map", {}),
  AutoGroups: json("text-list", ["default"]),
  DefaultUseAutoGroup: bool(false),
  ModelPrice: json("ratio-map", DEFAULT_MODEL_PRICE),
  ModelRatio: json("ratio-map", DEFAULT_MODEL_RATIO),
  CompletionRatio: json("ratio-map", DEFAULT_COMPLETION_RATIO),
  CacheRatio: json("ratio-map", DEFAULT_CACHE_RATIO),
  // Prompt-cache writes (Claude), per model; a model not listed pays 1.25 × its prompt price.
  CreateCacheRatio: json("ratio-map", {}),
  // Upstream address policy (src/service/egress): loopback and private destinations allowed, link-local and metadata ones.
  UpstreamAllowedPrivateRanges: { kind: "allow-list", default: "" },
  UpstreamAllowLinkLocal: bool(false),
} satisfies OptionRegistry;

/** The registry as a list, in the order above. */
export const OPTION_DEFS: readonly OptionDef[] = Object.entries(OPTION_RULES).map(([key, rule]) => ({
  key: key as OptionKey,
  ...rule,
}));

export const OPTION_BY_KEY: ReadonlyMap<string, OptionDef> = new Map(OPTION_DEFS.map((d) => [d.key, d]));

/** The model price tables that POST /api/option/rest_model_ratio puts back to their defaults. */
export const MODEL_PRICE_KEYS = [
  "ModelRatio",
  "CompletionRatio",
  "ModelPrice",
  "CacheRatio",
] as const satisfies readonly OptionKey[];
