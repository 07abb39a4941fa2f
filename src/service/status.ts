import { VERSION } from "../shared/version";
import { epaySettings } from "./wallet/epay";
import { isSetUp } from "./accounts/setup";
import type { ServiceContext } from "./context";

/** The public platform status: what the console needs before anyone signs in. Never a secret. */
export async function platformStatus(ctx: ServiceContext) {
  const o = ctx.options;
  return {
    version: VERSION,
    start_time: ctx.startedAt,
    setup: await isSetUp(ctx),
    system_name: o.raw("SystemName"),
    logo: o.raw("Logo"),
    footer_html: o.raw("Footer"),
    server_address: o.raw("ServerAddress"),
    quota_per_unit: o.num("QuotaPerUnit"),
    display_in_currency: o.bool("DisplayInCurrencyEnabled"),
    quota_display_currency: o.raw("QuotaDisplayCurrency"),
    display_token_stat: o.bool("DisplayTokenStatEnabled"),
    enable_drawing: o.bool("DrawingEnabled"),
    enable_task: o.bool("TaskEnabled"),
    enable_data_export: o.bool("DataExportEnabled"),
    data_export_default_time: o.raw("DataExportDefaultTime"),
    default_collapse_sidebar: o.bool("DefaultCollapseSidebar"),
    mj_notify_enabled: o.bool("MjNotifyEnabled"),
    chats: o.json<unknown[]>("Chats"),
    chat_link: o.raw("ChatLink"),
    chat_link2: o.raw("ChatLink2"),
    pay_methods: o.json<unknown[]>("PayMethods"),
    top_up_link: o.raw("TopUpLink"),
    min_topup: o.num("MinTopUp"),
    enable_online_topup: epaySettings(ctx) !== undefined,
    price: o.num("Price"),
    usd_exchange_rate: o.num("USDExchangeRate"),
    default_use_auto_group: o.bool("DefaultUseAutoGroup"),
    register_enabled: o.bool("RegisterEnabled"),
    password_login_enabled: o.bool("PasswordLoginEnabled"),
    password_register_enabled: o.bool("PasswordRegisterEnabled"),
    email_verification: o.bool("EmailVerificationEnabled"),
    turnstile_check: o.bool("TurnstileCheckEnabled"),
    turnstile_site_key: o.raw("TurnstileSiteKey"),
    github_oauth: o.bool("GitHubOAuthEnabled"),
    github_client_id: o.raw("GitHubClientId"),
    linuxdo_oauth: o.bool("LinuxDOOAuthEnabled"),
    linuxdo_client_id: o.raw("LinuxDOClientId"),
    linuxdo_minimum_trust_level: o.num("LinuxDOMinimumTrustLevel"),
    oidc_enabled: o.bool("OIDCEnabled"),
    oidc_client_id: o.raw("OIDCClientId"),
    wechat_login: o.bool("WeChatAuthEnabled"),
    wechat_qrcode: o.raw("WeChatAccountQRCodeImageURL"),
    telegram_oauth: o.bool("TelegramOAuthEnabled"),
    telegram_bot_name: o.raw("TelegramBotName"),
    demo_site_enabled: o.bool("DemoSiteEnabled"),
    self_use_mode_enabled: o.bool("SelfUseModeEnabled"),
  };
}

/** The site's public pages, by the path segment the console asks for. */
const PUBLIC_TEXT = { notice: "Notice", about: "About", home_page_content: "HomePageContent" } as const;
export type PublicPage = keyof typeof PUBLIC_TEXT;
export const PUBLIC_PAGES = Object.keys(PUBLIC_TEXT) as PublicPage[];

export const publicText = (ctx: ServiceContext, page: PublicPage): string => ctx.options.raw(PUBLIC_TEXT[page]);
