import type { ExternalIdColumn } from "../../db/queries/users";
import type { BoolOptionKey } from "../../shared/option-keys";

/** Each way to sign in elsewhere: its name in messages, the users column it binds, and its site switch. */
export const OAUTH_PROVIDERS = {
  github: { name: "GitHub", column: "github_id", enabled: "GitHubOAuthEnabled" },
  linuxdo: { name: "LinuxDO", column: "linux_do_id", enabled: "LinuxDOOAuthEnabled" },
  oidc: { name: "OpenID Connect", column: "oidc_id", enabled: "OIDCEnabled" },
  wechat: { name: "WeChat", column: "wechat_id", enabled: "WeChatAuthEnabled" },
  telegram: { name: "Telegram", column: "telegram_id", enabled: "TelegramOAuthEnabled" },
} as const satisfies Record<string, { name: string; column: ExternalIdColumn; enabled: BoolOptionKey }>;

export type OAuthProvider = keyof typeof OAUTH_PROVIDERS;

export const isOAuthProvider = (name: string): name is OAuthProvider => Object.hasOwn(OAUTH_PROVIDERS, name);

/** An account elsewhere, as its provider vouched for it. */
export interface ExternalAccount {
  provider: OAuthProvider;
  /** The provider's stable id of the account (never its changeable login name). */
  id: string;
  /** A name the new user may take, when free. */
  username?: string;
  displayName?: string;
}
