import { Trans, useLingui } from "@lingui/react/macro";
import type { TextOptionKey } from "../../../../shared/option-keys";
import type { OptionValues } from "../options/field-spec";
import type { CardSpec } from "../operation/operation-cards";

export interface SystemCardSpec extends CardSpec {
  check?: (draft: OptionValues) => string | undefined;
}

/** The system tab's cards (spec §2): addresses, payment, sign-in switches, email, third-party sign-in and where upstream calls may go. */
export function useSystemCards(serverAddress: string): SystemCardSpec[] {
  const { t } = useLingui();
  const keyHint = t`Stored secrets are never shown; leave empty to keep`;
  const enterpriseHint = t`For GitHub Enterprise Server, its own addresses (its API is usually under /api/v3)`;
  /** A third-party service's public name or id and its secret. */
  const pair = (
    id: string,
    title: string,
    [key, label]: [TextOptionKey, string],
    [secret, secretLabel]: [TextOptionKey, string],
  ): SystemCardSpec => ({
    id,
    title,
    fields: [
      { key, kind: "text", label },
      { key: secret, kind: "secret", label: secretLabel, hint: keyHint },
    ],
  });
  return [
    {
      id: "server",
      title: t`General`,
      fields: [
        {
          key: "ServerAddress",
          kind: "address",
          label: t`Server address`,
          placeholder: "https://gateway.example.com",
          hint: t`The address users reach this site at`,
        },
      ],
    },
    {
      id: "worker",
      title: t`Proxy worker`,
      fields: [
        { key: "WorkerUrl", kind: "address", label: t`Worker address`, placeholder: "https://worker.example.com" },
        { key: "WorkerValidKey", kind: "secret", label: t`Worker key`, hint: keyHint },
      ],
    },
    {
      id: "payment",
      title: t`Payment`,
      check: () => (serverAddress ? undefined : t`Please set and save the server address first`),
      fields: [
        { key: "PayAddress", kind: "address", label: t`Payment address` },
        { key: "EpayId", kind: "text", label: t`Epay merchant ID` },
        { key: "EpayKey", kind: "secret", label: t`Epay merchant key`, hint: keyHint },
        {
          key: "CustomCallbackAddress",
          kind: "address",
          label: t`Callback address`,
          hint: t`Empty: the server address`,
        },
        { key: "Price", kind: "number", min: 0, label: t`Price of one US dollar of quota (local currency)` },
        { key: "MinTopUp", kind: "number", min: 1, label: t`Smallest top-up` },
        { key: "TopupGroupRatio", kind: "json", label: t`Top-up ratio per group (JSON)`, rows: 3 },
        { key: "PayMethods", kind: "json", label: t`Payment methods (JSON)`, rows: 4 },
      ],
    },
    {
      id: "login",
      title: t`Sign-in and registration`,
      fields: [
        {
          key: "PasswordLoginEnabled",
          kind: "switch",
          label: t`Sign in with a password`,
          confirmOff: (
            <Trans>
              Turning off password sign-in can lock everyone out, administrators included, unless another sign-in method
              works. Continue?
            </Trans>
          ),
        },
        { key: "PasswordRegisterEnabled", kind: "switch", label: t`Register with a password` },
        {
          key: "EmailVerificationEnabled",
          kind: "switch",
          label: t`Verify the email when registering with a password`,
        },
        { key: "GitHubOAuthEnabled", kind: "switch", label: t`Sign in with GitHub` },
        { key: "LinuxDOOAuthEnabled", kind: "switch", label: t`Sign in with LinuxDO` },
        { key: "WeChatAuthEnabled", kind: "switch", label: t`Sign in with WeChat` },
        { key: "TelegramOAuthEnabled", kind: "switch", label: t`Sign in with Telegram` },
        { key: "OIDCEnabled", kind: "switch", label: t`Sign in with OpenID Connect` },
        { key: "RegisterEnabled", kind: "switch", label: t`New users may register` },
        { key: "TurnstileCheckEnabled", kind: "switch", label: t`Turnstile human check` },
        {
          key: "TwoFactorRequiredForAdmins",
          kind: "switch",
          label: t`Administrators must use two-factor sign-in`,
        },
      ],
    },
    {
      id: "email-domains",
      title: t`Email domain whitelist`,
      fields: [
        { key: "EmailDomainRestrictionEnabled", kind: "switch", label: t`Only allow the listed domains` },
        { key: "EmailAliasRestrictionEnabled", kind: "switch", label: t`Refuse email aliases (name+tag@)` },
        { key: "EmailDomainWhitelist", kind: "textarea", label: t`Allowed domains`, hint: t`Comma separated`, rows: 3 },
      ],
    },
    {
      id: "smtp",
      title: t`SMTP`,
      fields: [
        { key: "SMTPServer", kind: "text", label: t`SMTP server` },
        { key: "SMTPPort", kind: "number", min: 1, label: t`SMTP port` },
        { key: "SMTPAccount", kind: "text", label: t`SMTP account` },
        { key: "SMTPFrom", kind: "text", label: t`Sender address` },
        { key: "SMTPToken", kind: "secret", label: t`SMTP access token`, hint: keyHint },
        { key: "SMTPSSLEnabled", kind: "switch", label: t`Use SSL` },
      ],
    },
    {
      id: "github",
      title: "GitHub OAuth",
      fields: [
        { key: "GitHubClientId", kind: "text", label: t`Client ID` },
        { key: "GitHubClientSecret", kind: "secret", label: t`Client secret`, hint: keyHint },
        { key: "GitHubBaseUrl", kind: "address", label: t`GitHub address`, hint: enterpriseHint },
        { key: "GitHubApiBaseUrl", kind: "address", label: t`GitHub API address`, hint: enterpriseHint },
      ],
    },
    {
      id: "wechat",
      title: t`WeChat server`,
      fields: [
        { key: "WeChatServerAddress", kind: "address", label: t`WeChat server address` },
        { key: "WeChatServerToken", kind: "secret", label: t`WeChat server token`, hint: keyHint },
        { key: "WeChatAccountQRCodeImageURL", kind: "text", label: t`Official account QR image address` },
      ],
    },
    pair("telegram", "Telegram", ["TelegramBotName", t`Bot name`], ["TelegramBotToken", t`Bot token`]),
    pair("turnstile", "Turnstile", ["TurnstileSiteKey", t`Site key`], ["TurnstileSecretKey", t`Secret key`]),
    {
      id: "linuxdo",
      title: "LinuxDO OAuth",
      fields: [
        { key: "LinuxDOClientId", kind: "text", label: t`Client ID` },
        { key: "LinuxDOClientSecret", kind: "secret", label: t`Client secret`, hint: keyHint },
        { key: "LinuxDOMinimumTrustLevel", kind: "number", min: 0, label: t`Minimum trust level` },
        { key: "LinuxDOAuthorizeEndpoint", kind: "address", label: t`Authorization endpoint` },
        { key: "LinuxDOTokenEndpoint", kind: "address", label: t`Token endpoint` },
        { key: "LinuxDOUserEndpoint", kind: "address", label: t`User endpoint` },
      ],
    },
    {
      id: "oidc",
      title: "OpenID Connect",
      fields: [
        {
          key: "OIDCWellKnown",
          kind: "address",
          label: t`Discovery document address`,
          placeholder: "https://id.example.com/.well-known/openid-configuration",
        },
        { key: "OIDCClientId", kind: "text", label: t`Client ID` },
        { key: "OIDCClientSecret", kind: "secret", label: t`Client secret`, hint: keyHint },
      ],
    },
    {
      id: "upstream-addresses",
      title: t`Upstream addresses`,
      fields: [
        {
          key: "UpstreamAllowedPrivateRanges",
          kind: "textarea",
          label: t`Private addresses channels may call`,
          hint: t`Loopback and private addresses (127.0.0.1, 10.x, 172.16–31.x, 192.168.x, 100.64.x, fc00::/7) are refused unless listed here: addresses, CIDR ranges or host names, comma separated, e.g. 192.168.1.0/24, ollama.lan`,
          rows: 3,
        },
        {
          key: "UpstreamAllowLinkLocal",
          kind: "switch",
          label: t`Allow link-local and cloud metadata addresses (169.254.x, fe80::/10, 169.254.169.254)`,
        },
      ],
    },
  ];
}
