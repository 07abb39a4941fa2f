import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OPTION_BY_KEY, OPTION_DEFS } from "../../src/service/options/registry";
import { OptionStore } from "../../src/service/options/store";
import { Role } from "../../src/shared/constants";
import type { OptionKey } from "../../src/shared/option-keys";
import type { ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { startTestServer, uniqueName, type TestServer } from "../support/server";

const INSUFFICIENT = { success: false, message: "Unauthorized, insufficient privileges" };

describe.each(DIALECTS)("site options on %s", (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s.stop());

  const listed = async (): Promise<Record<string, string>> => {
    const reply = await s.root.get("/api/option/");
    return Object.fromEntries(reply.body.data.map((o: { key: string; value: string }) => [o.key, o.value]));
  };
  const put = (key: string, value: unknown, as: ApiClient = s.root) => as.put("/api/option/", { key, value });
  const calls = (c: ApiClient) => [
    c.get("/api/option/"),
    put("Notice", "hijacked", c),
    c.post("/api/option/rest_model_ratio"),
  ];

  describe("only root manages options", () => {
    test("without a session every option call answers 401", async () => {
      for (const reply of await Promise.all(calls(s.client()))) {
        expect(reply.status).toBe(401);
        expect(reply.body.success).toBe(false);
      }
    });

    test("an ordinary user and an admin get 'Unauthorized, insufficient privileges' and change nothing", async () => {
      const user = await s.newUser();
      const admin = await s.newUser();
      const promoted = await s.root.post("/api/user/manage", { id: admin.userId, action: "promote" });
      expect(promoted.body.data.role).toBe(Role.Admin);
      for (const c of [user, admin]) {
        for (const reply of await Promise.all(calls(c))) expect(reply.body).toEqual(INSUFFICIENT);
      }
      expect((await listed()).Notice).not.toBe("hijacked");
    });
  });

  describe("GET /api/option/", () => {
    test("lists every option once as {key, value} pairs of strings", async () => {
      const reply = await s.root.get("/api/option/");
      expect(reply.body.success).toBe(true);
      const keys = reply.body.data.map((o: { key: string }) => o.key);
      expect(keys.sort()).toEqual(OPTION_DEFS.map((d) => d.key).sort());
      for (const pair of reply.body.data) expect(typeof pair.value).toBe("string");
      expect((await listed()).SystemName).toBe("Tollgate");
    });

    test("secret options come back blank after they are set, and never appear in the reply", async () => {
      expect((await put("ServerAddress", "https://gw.example.com")).body.success).toBe(true);
      const secrets = OPTION_DEFS.filter((d) => d.secret).map((d) => d.key);
      for (const key of secrets) expect((await put(key, `${key}-s3cr3t`)).body.success).toBe(true);
      const reply = await s.root.get("/api/option/");
      const values = await listed();
      for (const key of secrets) {
        expect(values[key]).toBe("");
        expect(s.ctx.options.raw(key)).toBe(`${key}-s3cr3t`);
      }
      expect(JSON.stringify(reply.body)).not.toContain("s3cr3t");
    });
  });

  describe("PUT /api/option/", () => {
    test("saves one key; the value may be a boolean, a number or a string", async () => {
      expect((await put("DrawingEnabled", false)).body).toEqual({ success: true, message: "", data: null });
      expect((await put("QuotaForNewUser", 250)).body.success).toBe(true);
      expect((await put("SystemName", "My Gate")).body.success).toBe(true);
      expect(await listed()).toMatchObject({ DrawingEnabled: "false", QuotaForNewUser: "250", SystemName: "My Gate" });
      await put("DrawingEnabled", "true");
    });

    const refusals: [OptionKey, unknown, string][] = [
      ["ModelRatio", '{"gpt-4o": 1,', "ModelRatio is not a valid JSON string"],
      ["TopupGroupRatio", "not json", "TopupGroupRatio is not a valid JSON string"],
      ["Chats", "[", "Chats is not a valid JSON string"],
      ["GroupRatio", '{"vip": "cheap"}', "GroupRatio must be a JSON object of non-negative numbers"],
      ["Price", -1, "Price must be at least 0"],
      ["MinTopUp", 0, "MinTopUp must be at least 1"],
      ["DataExportInterval", "0", "DataExportInterval must be at least 1"],
      ["QuotaForInviter", -5, "QuotaForInviter must be at least 0"],
      ["RegisterEnabled", "maybe", "RegisterEnabled must be true or false"],
      ["DataExportDefaultTime", "month", "DataExportDefaultTime must be one of hour, day, week"],
      ["ServerAddress", "gw.example.com", "ServerAddress must be an http:// or https:// address"],
      ["SystemName", null, "SystemName: a value is required"],
    ];
    for (const [key, value, message] of refusals) {
      test(`${key} = ${JSON.stringify(value)} is refused with '${message}' and changes nothing`, async () => {
        const before = (await listed())[key];
        expect((await put(key, value)).body).toEqual({ success: false, message });
        expect((await listed())[key]).toBe(before!);
        expect(s.ctx.options.raw(key)).toBe(before!);
      });
    }

    test("an unknown key or a missing key is refused and nothing is stored", async () => {
      expect((await put("NoSuchOption", "x")).body).toEqual({
        success: false,
        message: "unknown option: NoSuchOption",
      });
      expect(await listed()).not.toHaveProperty("NoSuchOption");
      expect((await s.root.put("/api/option/", { value: "x" })).body).toEqual({
        success: false,
        message: "key is required",
      });
    });

    test("server, worker, pay and WeChat server addresses lose trailing slashes", async () => {
      await put("ServerAddress", "https://gw.example.com");
      for (const key of ["ServerAddress", "WorkerUrl", "PayAddress", "WeChatServerAddress"]) {
        expect((await put(key, "https://host.example.com/path//")).body.success).toBe(true);
        expect((await listed())[key]).toBe("https://host.example.com/path");
      }
    });

    test("the server address is required before saving payment", async () => {
      for (const key of ["PayAddress", "EpayId", "EpayKey"]) await put(key, "");
      await put("ServerAddress", "");
      const refused = await put("PayAddress", "https://pay.example.com");
      expect(refused.body).toEqual({
        success: false,
        message: "the server address is required before saving payment settings",
      });
      expect((await listed()).PayAddress).toBe("");
      await put("ServerAddress", "https://gw.example.com/");
      expect((await put("PayAddress", "https://pay.example.com")).body.success).toBe(true);
      expect((await put("ServerAddress", "")).body.success).toBe(false);
    });

    test("a change takes effect at once: RegisterEnabled off shows in /api/status and stops registration", async () => {
      expect((await put("RegisterEnabled", false)).body.success).toBe(true);
      expect((await s.client().get("/api/status")).body.data.register_enabled).toBe(false);
      const refused = await s.client().post("/api/user/register", { username: uniqueName(), password: "password123" });
      expect(refused.body).toEqual({
        success: false,
        message: "new user registration is disabled by the administrator",
      });
      await put("RegisterEnabled", true);
      expect((await s.client().get("/api/status")).body.data.register_enabled).toBe(true);
    });

    test("a saved value survives a restart: a fresh OptionStore on the same database loads it", async () => {
      await put("Footer", "<b>footer</b>");
      await put("GroupRatio", '{"default": 1, "vip": 0.5}');
      const fresh = new OptionStore(s.ctx.db);
      await fresh.load();
      expect(fresh.raw("Footer")).toBe("<b>footer</b>");
      expect(fresh.json<Record<string, number>>("GroupRatio")).toEqual({ default: 1, vip: 0.5 });
    });
  });

  describe("POST /api/option/rest_model_ratio", () => {
    test("puts ModelRatio, CompletionRatio and ModelPrice back to the defaults", async () => {
      for (const key of ["ModelRatio", "CompletionRatio", "ModelPrice"]) {
        expect((await put(key, '{"my-model": 3}')).body.success).toBe(true);
      }
      const reply = await s.root.post("/api/option/rest_model_ratio");
      expect(reply.body).toEqual({ success: true, message: "model ratios reset to defaults", data: null });
      const values = await listed();
      for (const key of ["ModelRatio", "CompletionRatio", "ModelPrice"]) {
        expect(values[key]).toBe(OPTION_BY_KEY.get(key)!.default);
        expect(values[key]).not.toContain("my-model");
      }
      expect(JSON.parse(values.ModelRatio!)["gpt-4o"]).toBeGreaterThan(0);
    });
  });

  describe("public content: GET /api/notice, /api/about, /api/home_page_content", () => {
    test("answer the option's text to anyone, before sign-in", async () => {
      const texts: Record<string, [string, string]> = {
        notice: ["Notice", "**maintenance** at 2am"],
        about: ["About", "About us\nline 2"],
        home_page_content: ["HomePageContent", "https://home.example.com"],
      };
      for (const [path, [key, text]] of Object.entries(texts)) {
        await put(key, text);
        const reply = await s.client().get(`/api/${path}`);
        expect(reply.body).toEqual({ success: true, message: "", data: text });
      }
    });
  });
});
