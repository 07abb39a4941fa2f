import { describe, expect, test } from "bun:test";
import { upsert } from "../../src/db/queries/key-value";
import { OPTION_BY_KEY, OPTION_DEFS } from "../../src/service/options/registry";
import { OptionStore } from "../../src/service/options/store";
import { normalizeOptionValue } from "../../src/service/options/validate";
import type { OptionKey } from "../../src/shared/option-keys";
import { DIALECTS } from "../support/databases";
import { useMigratedDatabase } from "../support/migrated-database";

const normalize = (key: string, value: unknown) => normalizeOptionValue(OPTION_BY_KEY.get(key)!, value);
const refusal = (key: string, value: unknown) => {
  try {
    normalize(key, value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${key}=${JSON.stringify(value)} was accepted`);
};

/** The spec's option list (accounts-and-settings §3 'Option'). */
const SPEC_KEYS =
  `Notice SystemName Logo HomePageContent About Footer ServerAddress WorkerUrl WorkerValidKey PayAddress EpayId
EpayKey CustomCallbackAddress Price MinTopUp TopupGroupRatio PayMethods PasswordLoginEnabled PasswordRegisterEnabled
EmailVerificationEnabled RegisterEnabled GitHubOAuthEnabled LinuxDOOAuthEnabled WeChatAuthEnabled TelegramOAuthEnabled
TurnstileCheckEnabled EmailDomainRestrictionEnabled EmailAliasRestrictionEnabled SMTPSSLEnabled EmailDomainWhitelist SMTPServer
SMTPPort SMTPAccount SMTPFrom SMTPToken GitHubClientId GitHubClientSecret WeChatServerAddress WeChatServerToken
WeChatAccountQRCodeImageURL TelegramBotToken TelegramBotName TurnstileSiteKey TurnstileSecretKey LinuxDOClientId
LinuxDOClientSecret TopUpLink ChatLink ChatLink2 QuotaPerUnit RetryTimes USDExchangeRate DisplayInCurrencyEnabled
DisplayTokenStatEnabled DefaultCollapseSidebar DemoSiteEnabled DrawingEnabled MjNotifyEnabled MjAccountFilterEnabled
MjForwardUrlEnabled MjModeClearEnabled MjActionCheckSuccessEnabled CheckSensitiveEnabled CheckSensitiveOnPromptEnabled
SensitiveWords LogConsumeEnabled DataExportEnabled DataExportInterval DataExportDefaultTime ChannelDisableThreshold
QuotaRemindThreshold AutomaticDisableChannelEnabled AutomaticEnableChannelEnabled AutomaticDisableKeywords QuotaForNewUser
PreConsumedQuota QuotaForInviter QuotaForInvitee Chats GroupRatio UserUsableGroups GroupGroupRatio AutoGroups
DefaultUseAutoGroup ModelPrice ModelRatio CompletionRatio`.split(/\s+/);

describe("the option registry", () => {
  test("holds every option of the spec, once", () => {
    const keys: string[] = OPTION_DEFS.map((d) => d.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of SPEC_KEYS) expect(keys).toContain(key);
  });

  test("every default passes its own validation unchanged", () => {
    for (const def of OPTION_DEFS) expect(normalizeOptionValue(def, def.default)).toBe(def.default);
  });

  test("the spec's defaults: Price 7.3, USDExchangeRate 7.3, MinTopUp 1, DataExportInterval 5, SMTPPort 587, SystemName Tollgate", () => {
    const defaults = Object.fromEntries(OPTION_DEFS.map((d) => [d.key, d.default]));
    expect(defaults).toMatchObject({
      Price: "7.3",
      USDExchangeRate: "7.3",
      MinTopUp: "1",
      DataExportInterval: "5",
      SMTPPort: "587",
      SystemName: "Tollgate",
      DataExportDefaultTime: "hour",
      QuotaPerUnit: "500000",
    });
  });

  test("credentials are secret; public identifiers (client ids, Turnstile site key) are not", () => {
    const secret = OPTION_DEFS.filter((d) => d.secret)
      .map((d) => d.key)
      .sort();
    expect(secret).toEqual([
      "EpayKey",
      "GitHubClientSecret",
      "LinuxDOClientSecret",
      "OIDCClientSecret",
      "SMTPToken",
      "TelegramBotToken",
      "TurnstileSecretKey",
      "WeChatServerToken",
      "WorkerValidKey",
    ]);
    for (const def of OPTION_DEFS) {
      if (/(Token|Secret|SecretKey|ValidKey)$|^EpayKey$/.test(def.key)) expect(def.secret).toBe(true);
    }
  });
});

describe("option validation and normalization", () => {
  test("switches take true or false, as booleans or strings", () => {
    expect(normalize("RegisterEnabled", false)).toBe("false");
    expect(normalize("RegisterEnabled", " true ")).toBe("true");
    expect(refusal("RegisterEnabled", "yes")).toBe("RegisterEnabled must be true or false");
    expect(refusal("RegisterEnabled", 1)).toBe("RegisterEnabled must be true or false");
  });

  test("numbers: Price minimum 0, MinTopUp minimum 1 and whole, others minimum 0 or 1", () => {
    expect(normalize("Price", "7.5")).toBe("7.5");
    expect(normalize("Price", 0)).toBe("0");
    expect(refusal("Price", -0.01)).toBe("Price must be at least 0");
    expect(refusal("MinTopUp", 0)).toBe("MinTopUp must be at least 1");
    expect(refusal("MinTopUp", 1.5)).toBe("MinTopUp must be a whole number");
    expect(refusal("DataExportInterval", 0)).toBe("DataExportInterval must be at least 1");
    expect(refusal("QuotaForNewUser", -1)).toBe("QuotaForNewUser must be at least 0");
    expect(refusal("SMTPPort", 70000)).toBe("SMTPPort must be at most 65535");
    expect(refusal("RetryTimes", "three")).toBe("RetryTimes must be a number");
    expect(refusal("RetryTimes", "")).toBe("RetryTimes must be a number");
  });

  test("DataExportDefaultTime is hour, day or week", () => {
    for (const v of ["hour", "day", "week"]) expect(normalize("DataExportDefaultTime", v)).toBe(v);
    expect(refusal("DataExportDefaultTime", "month")).toBe("DataExportDefaultTime must be one of hour, day, week");
  });

  test("server, worker, pay and WeChat server addresses lose trailing slashes", () => {
    for (const key of ["ServerAddress", "WorkerUrl", "PayAddress", "WeChatServerAddress", "CustomCallbackAddress"]) {
      expect(normalize(key, " https://gw.example.com/base/// ")).toBe("https://gw.example.com/base");
      expect(normalize(key, "")).toBe("");
    }
  });

  test("addresses must be http or https", () => {
    expect(refusal("ServerAddress", "gw.example.com")).toBe("ServerAddress must be an http:// or https:// address");
    expect(refusal("WorkerUrl", "ftp://example.com")).toBe("WorkerUrl must be an http:// or https:// address");
  });

  test("JSON options must parse: 'not a valid JSON string'", () => {
    for (const key of [
      "TopupGroupRatio",
      "PayMethods",
      "GroupRatio",
      "UserUsableGroups",
      "GroupGroupRatio",
      "AutoGroups",
      "ModelPrice",
      "ModelRatio",
      "CompletionRatio",
      "Chats",
    ]) {
      expect(refusal(key, "{not json")).toBe(`${key} is not a valid JSON string`);
      expect(refusal(key, "")).toBe(`${key} is not a valid JSON string`);
    }
  });

  test("JSON options must have the shape their readers expect", () => {
    expect(refusal("ModelRatio", '{"gpt-4o": "cheap"}')).toBe(
      "ModelRatio must be a JSON object of non-negative numbers",
    );
    expect(refusal("GroupRatio", '{"vip": -1}')).toBe("GroupRatio must be a JSON object of non-negative numbers");
    expect(refusal("GroupRatio", "[1]")).toBe("GroupRatio must be a JSON object of non-negative numbers");
    expect(refusal("UserUsableGroups", '{"vip": 2}')).toBe("UserUsableGroups must be a JSON object of strings");
    expect(refusal("GroupGroupRatio", '{"vip": 0.9}')).toBe(
      "GroupGroupRatio must be a JSON object of JSON objects of non-negative numbers",
    );
    expect(refusal("AutoGroups", '["default", 3]')).toBe("AutoGroups must be a JSON array of non-empty strings");
    expect(refusal("PayMethods", '"alipay"')).toBe("PayMethods must be a JSON array of objects");
    expect(normalize("GroupGroupRatio", '{ "vip": { "default": 0.9 } }')).toBe('{"vip":{"default":0.9}}');
  });

  test("JSON options are stored compact and also accept the parsed value", () => {
    expect(normalize("ModelRatio", '{\n  "m": 1.5\n}')).toBe('{"m":1.5}');
    expect(normalize("AutoGroups", ["default", "vip"])).toBe('["default","vip"]');
    expect(refusal("SystemName", { a: 1 })).toBe("SystemName must be a string, number or boolean");
  });

  test("status code lists take codes and ranges between 100 and 599", () => {
    expect(normalize("AutomaticDisableStatusCodes", " 401, 403 ,500-599 ")).toBe("401,403,500-599");
    expect(normalize("AutomaticDisableStatusCodes", "")).toBe("");
    for (const bad of ["40", "401-400", "500-600", "abc"]) {
      expect(refusal("AutomaticRetryStatusCodes", bad)).toBe(
        "AutomaticRetryStatusCodes must list HTTP status codes or ranges, e.g. 401,500-599",
      );
    }
  });

  test("the email domain whitelist is a clean comma list; multi-line texts are kept as written", () => {
    expect(normalize("EmailDomainWhitelist", " a.com, ,b.com\nc.com ")).toBe("a.com,b.com,c.com");
    expect(normalize("Notice", "  # Hello\n\nworld  ")).toBe("  # Hello\n\nworld  ");
  });

  test("a value is required", () => {
    expect(refusal("SystemName", null)).toBe("SystemName: a value is required");
    expect(refusal("Notice", undefined)).toBe("Notice: a value is required");
  });
});

describe.each(DIALECTS)("option persistence on %s", (dialect) => {
  const database = useMigratedDatabase(dialect);

  const loaded = async () => {
    const store = new OptionStore(database());
    await store.load();
    return store;
  };

  test("set, then a new store on the same database loads the same values", async () => {
    const store = await loaded();
    const values: Partial<Record<OptionKey, unknown>> = {
      SystemName: "Gate 7",
      RegisterEnabled: false,
      Price: 8.25,
      ServerAddress: "https://gw.example.com/",
      EpayKey: "epay-secret",
      Notice: "multi\nline ünïcode ✓",
      GroupRatio: '{"default":1,"vip":0.8}',
      DataExportDefaultTime: "week",
    };
    const keys = Object.keys(values) as OptionKey[];
    for (const key of keys) await store.set(key, values[key]);
    const again = await loaded();
    for (const key of keys) expect(again.raw(key)).toBe(store.raw(key));
    expect(again.raw("ServerAddress")).toBe("https://gw.example.com");
    expect(again.bool("RegisterEnabled")).toBe(false);
    expect(again.num("Price")).toBe(8.25);
    expect(again.json<Record<string, number>>("GroupRatio")).toEqual({ default: 1, vip: 0.8 });
  });

  test("saving a key twice keeps the last value", async () => {
    const store = await loaded();
    await store.set("ChatLink", "https://chat.one");
    await store.set("ChatLink", "https://chat.two");
    expect((await loaded()).raw("ChatLink")).toBe("https://chat.two");
  });

  test("a refused value changes nothing, in memory or in the database", async () => {
    const store = await loaded();
    await store.set("MinTopUp", 5);
    await expect(store.set("MinTopUp", 0)).rejects.toThrow("MinTopUp must be at least 1");
    // @ts-expect-error a caller that bypasses the type still meets the store's own refusal
    await expect(store.set("NoSuchOption", "x")).rejects.toThrow("unknown option: NoSuchOption");
    expect(store.raw("MinTopUp")).toBe("5");
    expect((await loaded()).raw("MinTopUp")).toBe("5");
  });

  test("a stored value that no longer validates loads as the default", async () => {
    await upsert(database(), "options", "DataExportInterval", "zero");
    await upsert(database(), "options", "ModelRatio", "{broken");
    const store = await loaded();
    expect(store.raw("DataExportInterval")).toBe("5");
    expect(store.raw("ModelRatio")).toBe(OPTION_BY_KEY.get("ModelRatio")!.default);
  });

  test("reset puts the model price tables back to their defaults, durably", async () => {
    const store = await loaded();
    await store.set("ModelRatio", '{"custom":3}');
    await store.set("ModelPrice", '{"custom":0.5}');
    await store.reset(["ModelRatio", "ModelPrice"]);
    const again = await loaded();
    for (const key of ["ModelRatio", "ModelPrice"] as const)
      expect(again.raw(key)).toBe(OPTION_BY_KEY.get(key)!.default);
  });

  describe("server address required before saving payment", () => {
    const fresh = () => new OptionStore(database());

    test("payment settings are refused while ServerAddress is empty", async () => {
      const store = fresh();
      for (const key of ["PayAddress", "EpayId", "EpayKey"] as const) {
        await expect(store.set(key, key === "PayAddress" ? "https://pay.example.com" : "x")).rejects.toThrow(
          "the server address is required before saving payment settings",
        );
        expect(store.raw(key)).toBe("");
      }
      await store.set("PayAddress", "");
    });

    test("once ServerAddress is set payment can be saved, and ServerAddress cannot be cleared under it", async () => {
      const store = fresh();
      await store.set("ServerAddress", "https://gw.example.com");
      await store.set("EpayId", "1001");
      await expect(store.set("ServerAddress", "")).rejects.toThrow(
        "clear the payment settings (PayAddress, EpayId, EpayKey) before removing the server address",
      );
      expect(store.raw("ServerAddress")).toBe("https://gw.example.com");
      await store.set("EpayId", "");
      await store.set("ServerAddress", "");
      expect(store.raw("ServerAddress")).toBe("");
    });
  });
});
