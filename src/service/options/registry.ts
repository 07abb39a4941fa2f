import { QUOTA_PER_UNIT } from "../../shared/constants";
import { DEFAULT_CACHE_RATIO, DEFAULT_COMPLETION_RATIO, DEFAULT_MODEL_PRICE, DEFAULT_MODEL_RATIO } from "./default-prices";
import type { JsonShape } from "./json-shapes";

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

export interface OptionDef {
  key: string;
  kind: OptionKind;
  /** Stored form of the default value. */
  default: string;
  /** Listed with a blank value; only root can write it, nobody can read it back. */
  secret?: boolean;
  min?: number;
  max?: number;
  choices?: readonly string[];
  shape?: JsonShape;
}

const bool = (key: string, value: boolean): OptionDef => ({ key, kind: "bool", default: String(value) });
const int = (key: string, value: number, min = 0, max?: number): OptionDef => ({ key, kind: "int", default: String(value), min, max });
const float = (key: string, value: number, min = 0): OptionDef => ({ key, kind: "float", default: String(value), min });
const str = (key: string, value = ""): OptionDef => ({ key, kind: "string", default: value });
const text = (key: string, value = ""): OptionDef => ({ key, kind: "text", default: value });
const secret = (key: string): OptionDef => ({ key, kind: "string", default: "", secret: true });
/** An http(s) base address; stored without trailing slashes. */
const address = (key: string): OptionDef => ({ key, kind: "address", default: "" });
const codes = (key: string, value: string): OptionDef => ({ key, kind: "status-codes", default: value });
const json = (key: string, shape: JsonShape, value: unknown): OptionDef => ({ key, kind: "json", shape, default: JSON.stringify(value) });

const DEFAULT_DISABLE_KEYWORDS = [
  "Your credit balance is too low",
  "This organization has been disabled.",
  "You exceeded your current quota",
  "Permission denied",
  "The security token included in the request is invalid",
  "Operation not allowed",
  "Your account is not authorized",
].join("\n");

const DEFAULT_EMAIL_DOMAINS = "gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com";

/** Every site option of the spec (§3 'Option') and of the dialect's defaults, with its type, default and rules. */
export const OPTION_DEFS: readonly OptionDef[] = [
  // Content
  text("Notice"), str("SystemName", "Tollgate"), str("Logo"), text("HomePageContent"), text("About"), text("Footer"),
  // Addresses and payment
  address("ServerAddress"), address("WorkerUrl"), secret("WorkerValidKey"), address("PayAddress"), str("EpayId"),
  secret("EpayKey"), address("CustomCallbackAddress"), float("Price", 7.3), int("MinTopUp", 1, 1),
  json("TopupGroupRatio", "ratio-map", { default: 1, vip: 1, svip: 1 }),
  json("PayMethods", "object-list", [
    { name: "Alipay", type: "alipay", color: "#1677ff" },
    { name: "WeChat Pay", type: "wxpay", color: "#07c160" },
  ]),
  // Switches
  bool("PasswordLoginEnabled", true), bool("PasswordRegisterEnabled", true), bool("EmailVerificationEnabled", false),
  bool("RegisterEnabled", true), bool("GitHubOAuthEnabled", false), bool("LinuxDOOAuthEnabled", false),
  bool("WeChatAuthEnabled", false), bool("TelegramOAuthEnabled", false), bool("TurnstileCheckEnabled", false),
  bool("EmailDomainRestrictionEnabled", false), bool("EmailAliasRestrictionEnabled", false), bool("SMTPSSLEnabled", false),
  // Email
  { key: "EmailDomainWhitelist", kind: "comma-list", default: DEFAULT_EMAIL_DOMAINS },
  str("SMTPServer"), int("SMTPPort", 587, 1, 65535), str("SMTPAccount"), str("SMTPFrom"), secret("SMTPToken"),
  // Third-party login
  str("GitHubClientId"), secret("GitHubClientSecret"), address("WeChatServerAddress"), secret("WeChatServerToken"),
  str("WeChatAccountQRCodeImageURL"), secret("TelegramBotToken"), str("TelegramBotName"), str("TurnstileSiteKey"),
  secret("TurnstileSecretKey"), str("LinuxDOClientId"), secret("LinuxDOClientSecret"),
  // Display
  str("TopUpLink"), str("ChatLink"), str("ChatLink2"), float("QuotaPerUnit", QUOTA_PER_UNIT, 1), int("RetryTimes", 0),
  float("USDExchangeRate", 7.3), bool("DisplayInCurrencyEnabled", true), bool("DisplayTokenStatEnabled", true),
  bool("DefaultCollapseSidebar", false), bool("DemoSiteEnabled", false), bool("SelfUseModeEnabled", false),
  // Drawing and tasks
  bool("DrawingEnabled", true), bool("TaskEnabled", true), bool("MjNotifyEnabled", false),
  bool("MjAccountFilterEnabled", false), bool("MjForwardUrlEnabled", false), bool("MjModeClearEnabled", false),
  bool("MjActionCheckSuccessEnabled", true),
  // Sensitive words: on by default as in the dialect, but with no word listed nothing is filtered.
  bool("CheckSensitiveEnabled", true), bool("CheckSensitiveOnPromptEnabled", true), bool("StopOnSensitiveEnabled", true),
  text("SensitiveWords"),
  // Logs and dashboard
  bool("LogConsumeEnabled", true), bool("ErrorLogEnabled", false), bool("DataExportEnabled", true), int("DataExportInterval", 5, 1),
  { key: "DataExportDefaultTime", kind: "choice", default: "hour", choices: ["hour", "day", "week"] },
  int("LogRetentionDays", 0),
  // Monitoring
  float("ChannelDisableThreshold", 5), int("QuotaRemindThreshold", 1000), bool("AutomaticDisableChannelEnabled", false),
  bool("AutomaticEnableChannelEnabled", false), int("AutoTestChannelMinutes", 10), text("AutomaticDisableKeywords", DEFAULT_DISABLE_KEYWORDS),
  codes("AutomaticDisableStatusCodes", "401"),
  codes("AutomaticRetryStatusCodes", "100-199,300-399,401-407,409-499,500-503,505-523,525-599"),
  // Quota
  int("QuotaForNewUser", 0), int("PreConsumedQuota", 500), int("QuotaForInviter", 0), int("QuotaForInvitee", 0),
  // Per-user model request rate limit
  bool("ModelRequestRateLimitEnabled", false), int("ModelRequestRateLimitDurationMinutes", 1, 1),
  int("ModelRequestRateLimitCount", 0), int("ModelRequestRateLimitSuccessCount", 1000, 1),
  // Groups and prices
  json("Chats", "object-list", []), json("GroupRatio", "ratio-map", { default: 1, vip: 1, svip: 1 }),
  json("UserUsableGroups", "text-map", { default: "Default group", vip: "VIP group" }),
  json("GroupGroupRatio", "ratio-map-map", {}), json("AutoGroups", "text-list", ["default"]),
  bool("DefaultUseAutoGroup", false),
  json("ModelPrice", "ratio-map", DEFAULT_MODEL_PRICE), json("ModelRatio", "ratio-map", DEFAULT_MODEL_RATIO),
  json("CompletionRatio", "ratio-map", DEFAULT_COMPLETION_RATIO),
  json("CacheRatio", "ratio-map", DEFAULT_CACHE_RATIO),
  // Prompt-cache writes (Claude), per model; a model not listed pays 1.25 × its prompt price.
  json("CreateCacheRatio", "ratio-map", {}),
  // Upstream address policy (src/service/egress): loopback and private destinations allowed, link-local and metadata ones.
  { key: "UpstreamAllowedPrivateRanges", kind: "allow-list", default: "" }, bool("UpstreamAllowLinkLocal", false),
];

export const OPTION_BY_KEY: ReadonlyMap<string, OptionDef> = new Map(OPTION_DEFS.map((d) => [d.key, d]));

/** The model price tables that POST /api/option/rest_model_ratio puts back to their defaults. */
export const MODEL_PRICE_KEYS = ["ModelRatio", "CompletionRatio", "ModelPrice", "CacheRatio"] as const;
