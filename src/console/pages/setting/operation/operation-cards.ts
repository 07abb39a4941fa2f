import { useLingui } from "@lingui/react/macro";
import type { FieldSpec } from "../options/field-spec";

export interface CardSpec {
  id: string;
  title: string;
  fields: FieldSpec[];
}

/** The operation tab's plain cards (spec §2 'Settings tabs'); log cleanup and the price editor are added by the tab. */
export function useOperationCards(): CardSpec[] {
  const { t } = useLingui();
  const onePerLine = t`One per line`;
  return [
    {
      id: "general",
      title: t`General`,
      fields: [
        { key: "TopUpLink", kind: "text", label: t`Top-up link`, hint: t`Where users buy redemption codes` },
        { key: "ChatLink", kind: "text", label: t`Chat link` },
        { key: "ChatLink2", kind: "text", label: t`Chat link 2` },
        {
          key: "QuotaPerUnit",
          kind: "number",
          min: 1,
          label: t`Quota per unit`,
          hint: t`Quota units that make one US dollar (500000 by default)`,
        },
        { key: "RetryTimes", kind: "number", min: 0, label: t`Retry times` },
        { key: "USDExchangeRate", kind: "number", min: 0, label: t`USD exchange rate` },
        { key: "DisplayInCurrencyEnabled", kind: "switch", label: t`Show quota as a currency amount` },
        {
          key: "QuotaDisplayCurrency",
          kind: "select",
          label: t`Currency shown`,
          options: [
            { value: "USD", label: t`US dollars ($)` },
            { value: "CNY", label: t`Yuan (¥, at the USD exchange rate)` },
          ],
        },
        {
          key: "RelayErrorLanguage",
          kind: "select",
          label: t`Relay (/v1) error language`,
          options: [
            { value: "en", label: t`English` },
            { value: "zh", label: t`Chinese` },
          ],
        },
        { key: "DisplayTokenStatEnabled", kind: "switch", label: t`Show token statistics` },
        { key: "DefaultCollapseSidebar", kind: "switch", label: t`Collapse the side menu by default` },
        { key: "DemoSiteEnabled", kind: "switch", label: t`Demo site mode` },
        { key: "SelfUseModeEnabled", kind: "switch", label: t`Self-use mode` },
      ],
    },
    {
      id: "drawing",
      title: t`Drawing`,
      fields: [
        { key: "DrawingEnabled", kind: "switch", label: t`Drawing enabled` },
        { key: "TaskEnabled", kind: "switch", label: t`Async tasks enabled` },
        { key: "MjNotifyEnabled", kind: "switch", label: t`Allow callbacks (exposes the server address)` },
        { key: "MjAccountFilterEnabled", kind: "switch", label: t`Allow the accountFilter parameter` },
        { key: "MjForwardUrlEnabled", kind: "switch", label: t`Rewrite image addresses through this server` },
        { key: "MjModeClearEnabled", kind: "switch", label: t`Clear --fast, --relax and --turbo from prompts` },
        { key: "MjActionCheckSuccessEnabled", kind: "switch", label: t`Only act on tasks that succeeded` },
      ],
    },
    {
      id: "sensitive",
      title: t`Sensitive words`,
      fields: [
        { key: "CheckSensitiveEnabled", kind: "switch", label: t`Filter sensitive words` },
        { key: "CheckSensitiveOnPromptEnabled", kind: "switch", label: t`Check prompts` },
        { key: "StopOnSensitiveEnabled", kind: "switch", label: t`Stop the request when a word is found` },
        { key: "SensitiveWords", kind: "textarea", label: t`Sensitive words`, hint: onePerLine, rows: 5 },
      ],
    },
    {
      id: "dashboard",
      title: t`Data dashboard`,
      fields: [
        { key: "DataExportEnabled", kind: "switch", label: t`Data dashboard enabled` },
        { key: "DataExportInterval", kind: "number", min: 1, label: t`Update interval (minutes)` },
        {
          key: "DataExportDefaultTime",
          kind: "select",
          label: t`Default granularity`,
          options: [
            { value: "hour", label: t`Hour` },
            { value: "day", label: t`Day` },
            { value: "week", label: t`Week` },
          ],
        },
      ],
    },
    {
      id: "monitoring",
      title: t`Monitoring`,
      fields: [
        {
          key: "ChannelDisableThreshold",
          kind: "number",
          min: 0,
          label: t`Longest response time (seconds)`,
          hint: t`Channels slower than this in a test are disabled`,
        },
        { key: "QuotaRemindThreshold", kind: "number", min: 0, label: t`Quota reminder threshold` },
        { key: "AutomaticDisableChannelEnabled", kind: "switch", label: t`Disable a channel when it fails` },
        { key: "AutomaticEnableChannelEnabled", kind: "switch", label: t`Enable a channel again when a test succeeds` },
        {
          key: "AutomaticDisableStatusCodes",
          kind: "text",
          label: t`Status codes that disable a channel`,
          hint: t`e.g. 401,500-599`,
        },
        { key: "AutomaticRetryStatusCodes", kind: "text", label: t`Status codes that are retried` },
        {
          key: "AutomaticDisableKeywords",
          kind: "textarea",
          label: t`Keywords that disable a channel`,
          hint: t`One per line, case-insensitive`,
          rows: 5,
        },
      ],
    },
    {
      id: "quota",
      title: t`Quota`,
      fields: [
        { key: "QuotaForNewUser", kind: "number", min: 0, label: t`Quota for a new user` },
        { key: "PreConsumedQuota", kind: "number", min: 0, label: t`Quota held before a request` },
        { key: "QuotaForInviter", kind: "number", min: 0, label: t`Reward for the inviter` },
        { key: "QuotaForInvitee", kind: "number", min: 0, label: t`Reward for the invitee` },
      ],
    },
    {
      id: "rate-limit",
      title: t`Model request rate limit`,
      fields: [
        { key: "ModelRequestRateLimitEnabled", kind: "switch", label: t`Limit model requests per user` },
        { key: "ModelRequestRateLimitDurationMinutes", kind: "number", min: 1, label: t`Window (minutes)` },
        { key: "ModelRequestRateLimitCount", kind: "number", min: 0, label: t`Requests per window (0: no limit)` },
        { key: "ModelRequestRateLimitSuccessCount", kind: "number", min: 1, label: t`Successful requests per window` },
        {
          key: "ModelRequestRateLimitGroup",
          kind: "json",
          label: t`Per-group limits (JSON)`,
          hint: t`A JSON object of group → [requests, successful requests] per window; a listed group uses these instead`,
          rows: 3,
        },
        {
          key: "TrafficLimitGroup",
          kind: "json",
          label: t`Default limits per minute by group (JSON)`,
          hint: t`A JSON object of group → [requests, tokens] per minute, for users whose own limits are 0`,
          rows: 3,
        },
      ],
    },
    {
      id: "chats",
      title: t`Chat configuration`,
      fields: [
        {
          key: "Chats",
          kind: "json",
          label: t`Chat clients (JSON)`,
          hint: t`A list of chat clients and their link templates`,
          rows: 6,
        },
      ],
    },
    {
      id: "groups",
      title: t`Groups`,
      fields: [
        { key: "GroupRatio", kind: "json", label: t`Group ratios (JSON)`, rows: 4 },
        { key: "UserUsableGroups", kind: "json", label: t`Groups users may choose (JSON)`, rows: 4 },
        { key: "GroupGroupRatio", kind: "json", label: t`Special ratios between groups (JSON)`, rows: 4 },
        { key: "AutoGroups", kind: "json", label: t`Groups tried by the auto group, in order (JSON)`, rows: 3 },
        { key: "DefaultUseAutoGroup", kind: "switch", label: t`New tokens use the auto group` },
      ],
    },
  ];
}
