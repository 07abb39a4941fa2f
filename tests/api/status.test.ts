import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { NOT_INITIALIZED } from "../../src/gateway/app";
import { OPTION_DEFS } from "../../src/service/options/registry";
import { VERSION } from "../../src/shared/version";
import { DIALECTS } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

/** accounts-and-settings §3 'Platform status', relay-and-console 'Server status', plus version and setup. */
const STATUS_FIELDS: Record<string, "string" | "number" | "boolean" | "array"> = {
  version: "string",
  start_time: "number",
  setup: "boolean",
  system_name: "string",
  logo: "string",
  footer_html: "string",
  quota_per_unit: "number",
  display_in_currency: "boolean",
  enable_drawing: "boolean",
  enable_task: "boolean",
  enable_data_export: "boolean",
  chats: "array",
  pay_methods: "array",
  data_export_default_time: "string",
  default_collapse_sidebar: "boolean",
  mj_notify_enabled: "boolean",
  chat_link: "string",
  chat_link2: "string",
  email_verification: "boolean",
  turnstile_check: "boolean",
  turnstile_site_key: "string",
  github_oauth: "boolean",
  github_client_id: "string",
  linuxdo_oauth: "boolean",
  linuxdo_client_id: "string",
  linuxdo_minimum_trust_level: "number",
  oidc_enabled: "boolean",
  oidc_client_id: "string",
  wechat_login: "boolean",
  wechat_qrcode: "string",
  telegram_oauth: "boolean",
  telegram_bot_name: "string",
  server_address: "string",
  top_up_link: "string",
  min_topup: "number",
  enable_online_topup: "boolean",
  price: "number",
  usd_exchange_rate: "number",
  default_use_auto_group: "boolean",
};

const typeOf = (v: unknown) => (Array.isArray(v) ? "array" : typeof v);

/** Option saved → the status field it shows as, with the value expected there. */
const SHOWN_AS: [string, unknown, string, unknown][] = [
  ["SystemName", "Gate Nine", "system_name", "Gate Nine"],
  ["Logo", "https://cdn.example.com/logo.svg", "logo", "https://cdn.example.com/logo.svg"],
  ["Footer", "<a href='/x'>x</a>", "footer_html", "<a href='/x'>x</a>"],
  ["QuotaPerUnit", 1000, "quota_per_unit", 1000],
  ["DisplayInCurrencyEnabled", false, "display_in_currency", false],
  ["DrawingEnabled", false, "enable_drawing", false],
  ["TaskEnabled", false, "enable_task", false],
  ["DataExportEnabled", false, "enable_data_export", false],
  [
    "Chats",
    '[{"Web":"https://chat.example.com/#/?key={key}"}]',
    "chats",
    [{ Web: "https://chat.example.com/#/?key={key}" }],
  ],
  ["PayMethods", '[{"name":"Card","type":"card"}]', "pay_methods", [{ name: "Card", type: "card" }]],
  ["DataExportDefaultTime", "week", "data_export_default_time", "week"],
  ["DefaultCollapseSidebar", true, "default_collapse_sidebar", true],
  ["MjNotifyEnabled", true, "mj_notify_enabled", true],
  ["ChatLink", "https://chat.example.com", "chat_link", "https://chat.example.com"],
  ["ChatLink2", "https://chat2.example.com", "chat_link2", "https://chat2.example.com"],
  ["EmailVerificationEnabled", true, "email_verification", true],
  ["TurnstileCheckEnabled", true, "turnstile_check", true],
  ["TurnstileSiteKey", "0x4AAAA-site", "turnstile_site_key", "0x4AAAA-site"],
  ["GitHubOAuthEnabled", true, "github_oauth", true],
  ["GitHubClientId", "gh-client", "github_client_id", "gh-client"],
  ["LinuxDOOAuthEnabled", true, "linuxdo_oauth", true],
  ["LinuxDOClientId", "ld-client", "linuxdo_client_id", "ld-client"],
  ["LinuxDOMinimumTrustLevel", 2, "linuxdo_minimum_trust_level", 2],
  ["OIDCEnabled", true, "oidc_enabled", true],
  ["OIDCClientId", "oidc-client", "oidc_client_id", "oidc-client"],
  ["WeChatAuthEnabled", true, "wechat_login", true],
  ["WeChatAccountQRCodeImageURL", "https://img.example.com/qr.png", "wechat_qrcode", "https://img.example.com/qr.png"],
  ["TelegramOAuthEnabled", true, "telegram_oauth", true],
  ["TelegramBotName", "gate_bot", "telegram_bot_name", "gate_bot"],
  ["ServerAddress", "https://gw.example.com/", "server_address", "https://gw.example.com"],
  ["TopUpLink", "https://shop.example.com", "top_up_link", "https://shop.example.com"],
  ["MinTopUp", 5, "min_topup", 5],
  ["Price", 6.5, "price", 6.5],
  ["USDExchangeRate", 7.1, "usd_exchange_rate", 7.1],
  ["DefaultUseAutoGroup", true, "default_use_auto_group", true],
  ["RegisterEnabled", false, "register_enabled", false],
  ["PasswordLoginEnabled", false, "password_login_enabled", false],
  ["PasswordRegisterEnabled", false, "password_register_enabled", false],
  ["DemoSiteEnabled", true, "demo_site_enabled", true],
  ["SelfUseModeEnabled", true, "self_use_mode_enabled", true],
];

describe.each(DIALECTS)("GET /api/status on %s", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s.stop());

  const status = async () => {
    const reply = await s.client().get("/api/status");
    expect(reply.body.success).toBe(true);
    return reply.body.data as Record<string, unknown>;
  };

  test("is public and carries every platform-status and server-status field with its type", async () => {
    const data = await status();
    for (const [field, type] of Object.entries(STATUS_FIELDS)) {
      expect({ field, type: typeOf(data[field]) }).toEqual({ field, type });
    }
    expect(data).toMatchObject({
      version: VERSION,
      setup: true,
      system_name: "Tollgate",
      quota_per_unit: 500000,
      price: 7.3,
      usd_exchange_rate: 7.3,
      min_topup: 1,
      data_export_default_time: "hour",
      enable_online_topup: false,
    });
  });

  test("each option shows at once as its status field", async () => {
    for (const [key, value] of SHOWN_AS)
      expect((await s.root.put("/api/option/", { key, value })).body.success).toBe(true);
    const data = await status();
    for (const [key, , field, expected] of SHOWN_AS)
      expect({ key, [field]: data[field] }).toEqual({ key, [field]: expected });
  });

  test("online top-up is on once the pay address, Epay id and Epay key are all set", async () => {
    await s.root.put("/api/option/", { key: "ServerAddress", value: "https://gw.example.com" });
    await s.root.put("/api/option/", { key: "PayAddress", value: "https://pay.example.com/" });
    await s.root.put("/api/option/", { key: "EpayId", value: "1001" });
    expect((await status()).enable_online_topup).toBe(false);
    await s.root.put("/api/option/", { key: "EpayKey", value: "k" });
    expect((await status()).enable_online_topup).toBe(true);
  });

  test("no secret option value ever appears in the reply", async () => {
    await s.root.put("/api/option/", { key: "ServerAddress", value: "https://gw.example.com" });
    const secrets = OPTION_DEFS.filter((d) => d.secret).map((d) => d.key);
    for (const key of secrets) {
      expect((await s.root.put("/api/option/", { key, value: `leak-${key}-7f3a` })).body.success).toBe(true);
    }
    const text = JSON.stringify(await status());
    expect(text).not.toContain("7f3a");
  });
});

describe.each(DIALECTS)("before setup on %s", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { INITIAL_ROOT_PASSWORD: "" });
  });
  afterAll(() => s.stop());

  test("/api/status answers with setup false", async () => {
    const reply = await s.client().get("/api/status");
    expect(reply.status).toBe(200);
    expect(reply.body.data.setup).toBe(false);
    expect(reply.body.data.system_name).toBe("Tollgate");
  });

  test("the public content and option routes answer 503 until the root account exists", async () => {
    for (const path of ["/api/notice", "/api/about", "/api/home_page_content", "/api/option/"]) {
      const reply = await s.client().get(path);
      expect({ path, status: reply.status, body: reply.body }).toEqual({
        path,
        status: 503,
        body: { success: false, message: NOT_INITIALIZED },
      });
    }
  });
});
