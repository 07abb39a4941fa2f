import { describe, expect, spyOn, test } from "bun:test";
import * as redemptionQueries from "../../src/db/queries/redemptions";
import { TOO_MANY_REQUESTS } from "../../src/gateway/api/rate-limit";
import { CODE_DISABLED, CODE_EXPIRED, CODE_USED, INVALID_CODE, NO_CODE } from "../../src/service/redemptions/redeem";
import { CHANGED_MEANWHILE, ONLY_UNUSED_EDITABLE, USED_CODE_IS_FINAL } from "../../src/service/redemptions/update";
import { useAdminServer } from "../support/channels";
import { expectFailure, type ApiClient, type Reply } from "../support/client";
import { DIALECTS } from "../support/databases";
import { countRows, logsOf, userRow } from "../support/rows";
import { useTestServer, type TestServer } from "../support/server";

const KEY_FORMAT = /^[0-9a-f]{32}$/;
const VIEW_FIELDS = [
  "created_time",
  "expired_time",
  "id",
  "key",
  "name",
  "quota",
  "redeemed_time",
  "status",
  "used_user_id",
  "user_id",
];
const INSUFFICIENT = "Unauthorized, insufficient privileges";
const NOT_FOUND = "redemption code not found";
const UNUSED = 1;
const DISABLED = 2;
const USED = 3;
const now = () => Math.floor(Date.now() / 1000);

const refused = (reply: Reply, message: string) => expectFailure(reply, 200, message);

describe.each(DIALECTS)("redemption codes on %s", (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  useAdminServer(dialect, (started) => ({ s, admin } = started));

  const create = (body: Record<string, unknown>, by = admin) => by.post("/api/redemption/", body);
  /** Creates codes and answers their ids and keys, in order. */
  async function createCodes(body: Record<string, unknown> = {}): Promise<{ id: number; key: string }[]> {
    const reply = await create({ name: "gift", quota: 250000, ...body });
    expect(reply.body.success).toBe(true);
    const keys: string[] = reply.body.data;
    const rows = await s.ctx.db.k.selectFrom("redemptions").select(["id", "key"]).where("key", "in", keys).execute();
    return keys.map((key) => ({ key, id: rows.find((row) => row.key === key)!.id }));
  }
  const createCode = async (body: Record<string, unknown> = {}) => (await createCodes(body))[0]!;
  const codeRow = (id: number) =>
    s.ctx.db.k.selectFrom("redemptions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const setStatus = (id: number, status: unknown) => admin.put("/api/redemption/?status_only=true", { id, status });
  const redeem = (c: ApiClient, key: unknown) => c.post("/api/user/topup", { key });
  /** The user's balance and top-up log rows, to prove a refusal changed nothing. */
  const walletOf = async (id: number) => ({ quota: (await userRow(s.ctx, id)).quota, logs: await logsOf(s.ctx, id) });
  const expireInThePast = (id: number) =>
    s.ctx.db.k
      .updateTable("redemptions")
      .set({ expired_time: now() - 10 })
      .where("id", "=", id)
      .execute();

  describe("every /api/redemption call is for administrators", () => {
    test("an ordinary user gets 'insufficient privileges', a visitor 401, and nothing is created or changed", async () => {
      const { id } = await createCode();
      const before = await codeRow(id);
      const codes = await countRows(s.ctx, "redemptions");
      const user = await s.newUser();
      const visitor = s.client();
      for (const c of [user, visitor]) {
        const replies = [
          await c.get("/api/redemption/"),
          await c.get("/api/redemption/search?keyword=gift"),
          await c.get(`/api/redemption/${id}`),
          await create({ name: "x", quota: 1, count: 1 }, c),
          await c.put("/api/redemption/", { id, name: "stolen" }),
          await c.put("/api/redemption/?status_only=true", { id, status: DISABLED }),
          await c.delete(`/api/redemption/${id}`),
          await c.delete("/api/redemption/invalid"),
        ];
        for (const reply of replies) {
          if (c === user) refused(reply, INSUFFICIENT);
          else expect(reply.status).toBe(401);
          expect(JSON.stringify(reply.body)).not.toContain(before.key);
        }
      }
      expect(await codeRow(id)).toEqual(before);
      expect(await countRows(s.ctx, "redemptions")).toBe(codes);
    });
  });

  describe("POST /api/redemption/: create", () => {
    test("returns count keys of 32 hex characters; each code is unused, with the name, quota and creator", async () => {
      const reply = await create({ name: "launch", quota: 300000, count: 3 });
      expect(reply.body).toMatchObject({ success: true, message: "" });
      const keys: string[] = reply.body.data;
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(3);
      for (const key of keys) expect(key).toMatch(KEY_FORMAT);
      const rows = await s.ctx.db.k.selectFrom("redemptions").selectAll().where("key", "in", keys).execute();
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(row).toMatchObject({
          name: "launch",
          quota: 300000,
          status: UNUSED,
          user_id: admin.userId,
          used_user_id: 0,
          expired_time: 0,
        });
        expect(Math.abs(row.created_time - now())).toBeLessThan(5);
      }
    });

    test("a blank name becomes the formatted quota; without quota and count, one code of 100000", async () => {
      const [named] = await create({ name: "   ", quota: 500000 }).then((r) => r.body.data);
      const [plain] = await create({}).then((r) => r.body.data);
      const row = (key: string) =>
        s.ctx.db.k.selectFrom("redemptions").selectAll().where("key", "=", key).executeTakeFirstOrThrow();
      expect(await row(named)).toMatchObject({ name: "$1.00", quota: 500000 });
      expect(await row(plain)).toMatchObject({ name: "$0.20", quota: 100000 });
    });

    test("an expiry in the future is kept", async () => {
      const at = now() + 3600;
      const { id } = await createCode({ expired_time: at });
      expect((await codeRow(id)).expired_time).toBe(at);
    });

    test.each([
      [{ name: "x".repeat(21) }, "name must be at most 20 characters"],
      [{ count: 0 }, "count must be between 1 and 100"],
      [{ count: 101 }, "count must be between 1 and 100"],
      [{ count: "two" }, "count must be an integer"],
      [{ quota: 0 }, "quota must be between 1 and 500000000000"],
      [{ quota: -500 }, "quota must be between 1 and 500000000000"],
      [{ quota: 1.5 }, "quota must be an integer"],
      [{ expired_time: 1000 }, "expired_time must be 0 (never) or a future unix time in seconds"],
      [{ name: 42 }, "name must be a string"],
    ])("%j is refused and creates nothing", async (fields, message) => {
      const before = await countRows(s.ctx, "redemptions");
      refused(await create({ name: "bad", quota: 1000, count: 2, ...fields }), message);
      expect(await countRows(s.ctx, "redemptions")).toBe(before);
    });

    test("100 codes at once are created, all distinct", async () => {
      const reply = await create({ name: "bulk", quota: 10, count: 100 });
      expect(new Set(reply.body.data).size).toBe(100);
    });
  });

  describe("GET /api/redemption/, /search and /{id}", () => {
    test("the list pages newest first as {items, page, page_size, total}, keys shown to the admin", async () => {
      const created = await createCodes({ name: "paging", count: 3 });
      const reply = await admin.get("/api/redemption/?p=1&page_size=2");
      const { items, page, page_size, total } = reply.body.data;
      expect({ page, page_size }).toEqual({ page: 1, page_size: 2 });
      expect(total).toBe(await countRows(s.ctx, "redemptions"));
      expect(items.map((item: any) => item.id)).toEqual([created[2]!.id, created[1]!.id]);
      expect(Object.keys(items[0]).sort()).toEqual(VIEW_FIELDS);
      expect(items[0].key).toBe(created[2]!.key);
    });

    test("search matches the id exactly or part of the name, case-insensitively", async () => {
      const [a] = await createCodes({ name: "Spring-Promo" });
      await createCodes({ name: "autumn" });
      const byName = (await admin.get("/api/redemption/search?keyword=spring-pro")).body.data;
      expect(byName.items.map((item: any) => item.id)).toEqual([a!.id]);
      expect(byName.total).toBe(1);
      const byId = (await admin.get(`/api/redemption/search?keyword=${a!.id}`)).body.data;
      expect(byId.items.map((item: any) => item.id)).toContain(a!.id);
      expect((await admin.get("/api/redemption/search?keyword=100%25_off")).body.data.total).toBe(0);
    });

    test("get answers one code; an unknown id 'redemption code not found', a malformed one 'id must be a positive integer'", async () => {
      const { id, key } = await createCode({ name: "single", quota: 777 });
      const reply = await admin.get(`/api/redemption/${id}`);
      expect(reply.body.data).toMatchObject({ id, key, name: "single", quota: 777, status: UNUSED, used_user_id: 0 });
      refused(await admin.get("/api/redemption/987654321"), NOT_FOUND);
      refused(await admin.get("/api/redemption/abc"), "id must be a positive integer");
    });
  });

  describe("PUT /api/redemption/: edit only when unused; status_only enables or disables", () => {
    test("an unused code's name, quota and expiry change; a blank name becomes the new formatted quota", async () => {
      const { id } = await createCode();
      const at = now() + 7200;
      const reply = await admin.put("/api/redemption/", {
        id,
        name: "renamed",
        quota: 1000000,
        expired_time: at,
        status: DISABLED,
      });
      expect(reply.body.data).toMatchObject({ id, name: "renamed", quota: 1000000, expired_time: at, status: UNUSED });
      expect(await codeRow(id)).toMatchObject({ name: "renamed", quota: 1000000, expired_time: at, status: UNUSED });
      await admin.put("/api/redemption/", { id, name: "", quota: 1500000 });
      expect((await codeRow(id)).name).toBe("$3.00");
    });

    test("disable sets 2 and enable sets 1 again", async () => {
      const { id } = await createCode();
      expect((await setStatus(id, DISABLED)).body.data.status).toBe(DISABLED);
      expect((await codeRow(id)).status).toBe(DISABLED);
      expect((await setStatus(id, UNUSED)).body.data.status).toBe(UNUSED);
      expect((await codeRow(id)).status).toBe(UNUSED);
    });

    test("a disabled code cannot be edited until enabled again", async () => {
      const { id } = await createCode();
      await setStatus(id, DISABLED);
      const before = await codeRow(id);
      refused(await admin.put("/api/redemption/", { id, quota: 1 }), ONLY_UNUSED_EDITABLE);
      expect(await codeRow(id)).toEqual(before);
    });

    test("a used code can be neither enabled, disabled nor edited", async () => {
      const { id, key } = await createCode();
      await redeem(await s.newUser(), key);
      const before = await codeRow(id);
      expect(before.status).toBe(USED);
      refused(await setStatus(id, UNUSED), USED_CODE_IS_FINAL);
      refused(await setStatus(id, DISABLED), USED_CODE_IS_FINAL);
      refused(await admin.put("/api/redemption/", { id, quota: 999999999 }), USED_CODE_IS_FINAL);
      expect(await codeRow(id)).toEqual(before);
    });

    test.each([
      [{ status: USED }, "status must be 1 (unused) or 2 (disabled)"],
      [{ status: "on" }, "status must be an integer"],
    ])("status_only with %j is refused", async (fields, message) => {
      const { id } = await createCode();
      refused(await admin.put("/api/redemption/?status_only=true", { id, ...fields }), message);
      expect((await codeRow(id)).status).toBe(UNUSED);
    });

    test("an unknown or deleted code is 'redemption code not found'", async () => {
      const { id } = await createCode();
      await admin.delete(`/api/redemption/${id}`);
      refused(await admin.put("/api/redemption/", { id, name: "x" }), NOT_FOUND);
      refused(await setStatus(987654321, DISABLED), NOT_FOUND);
    });

    test("a change read before a redemption but written after it is refused and changes nothing", async () => {
      const { id, key } = await createCode({ quota: 1000 });
      const stale = await codeRow(id);
      await redeem(await s.newUser(), key);
      const read = spyOn(redemptionQueries, "findLiveRedemption").mockResolvedValueOnce(stale);
      try {
        refused(await admin.put("/api/redemption/", { id, quota: 2000 }), CHANGED_MEANWHILE);
        read.mockResolvedValueOnce(stale);
        refused(await setStatus(id, DISABLED), CHANGED_MEANWHILE);
      } finally {
        read.mockRestore();
      }
      expect(await codeRow(id)).toMatchObject({ quota: 1000, status: USED });
    });
  });

  describe("DELETE /api/redemption/{id} and /invalid", () => {
    test("a deleted code leaves the list and can no longer be redeemed", async () => {
      const { id, key } = await createCode();
      expect((await admin.delete(`/api/redemption/${id}/`)).body).toEqual({ success: true, message: "", data: null });
      refused(await admin.get(`/api/redemption/${id}`), NOT_FOUND);
      const listed = (await admin.get("/api/redemption/?page_size=100")).body.data.items.map((item: any) => item.id);
      expect(listed).not.toContain(id);
      refused(await redeem(await s.newUser(), key), INVALID_CODE);
      refused(await admin.delete(`/api/redemption/${id}`), NOT_FOUND);
    });

    test("/invalid deletes the used, disabled and expired codes, answers how many, and keeps the redeemable ones", async () => {
      await admin.delete("/api/redemption/invalid");
      const [used, disabled, expired, fresh] = await createCodes({ count: 4 });
      await redeem(await s.newUser(), used!.key);
      await setStatus(disabled!.id, DISABLED);
      await expireInThePast(expired!.id);
      const reply = await admin.delete("/api/redemption/invalid");
      expect(reply.body).toEqual({ success: true, message: "", data: 3 });
      for (const gone of [used!, disabled!, expired!])
        refused(await admin.get(`/api/redemption/${gone.id}`), NOT_FOUND);
      expect((await admin.get(`/api/redemption/${fresh!.id}`)).body.data.status).toBe(UNUSED);
    });
  });

  describe("POST /api/user/topup: redeem", () => {
    test("adds the code's quota (data = quota), marks the code used by the user, and writes one top-up log row", async () => {
      const { id, key } = await createCode({ quota: 1234567 });
      const user = await s.newUser();
      const before = await userRow(s.ctx, user.userId!);
      const reply = await redeem(user, key);
      expect(reply.body).toEqual({ success: true, message: "", data: 1234567 });
      expect((await userRow(s.ctx, user.userId!)).quota).toBe(before.quota + 1234567);
      expect((await user.get("/api/user/self")).body.data.quota).toBe(before.quota + 1234567);
      const code = await codeRow(id);
      expect(code).toMatchObject({ status: USED, used_user_id: user.userId });
      expect(Math.abs(code.redeemed_time - now())).toBeLessThan(5);
      const logs = (await logsOf(s.ctx, user.userId!)).filter((row) => row.type === 1);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ quota: 1234567, username: user.username });
      expect(logs[0]!.content).toContain(`#${id}`);
      expect(logs[0]!.content).not.toContain(key);
    });

    test("the key is accepted with surrounding spaces and in capitals", async () => {
      const { key } = await createCode({ quota: 10 });
      expect((await redeem(await s.newUser(), `  ${key.toUpperCase()} `)).body.data).toBe(10);
    });

    test("a code is used once: the second redeemer gets 'already used', by the same or another user", async () => {
      const { key } = await createCode({ quota: 50 });
      const [first, second] = [await s.newUser(), await s.newUser()];
      expect((await redeem(first, key)).body.data).toBe(50);
      for (const c of [first, second]) {
        const before = await walletOf(c.userId!);
        refused(await redeem(c, key), CODE_USED);
        expect(await walletOf(c.userId!)).toEqual(before);
      }
    });

    test.each([
      ["no key", undefined, NO_CODE],
      ["a blank key", "   ", NO_CODE],
      ["a key that is not a string", 12345, NO_CODE],
      ["a malformed key", "not-a-code", INVALID_CODE],
      ["an unknown key", "0123456789abcdef0123456789abcdef", INVALID_CODE],
    ])("%s is refused and changes nothing", async (_label, key, message) => {
      const user = await s.newUser();
      const before = await walletOf(user.userId!);
      refused(await redeem(user, key), message);
      expect(await walletOf(user.userId!)).toEqual(before);
    });

    test("a disabled code answers 'disabled', an expired one 'expired'; both stay unused and credit nothing", async () => {
      const disabled = await createCode();
      await setStatus(disabled.id, DISABLED);
      const expired = await createCode();
      await expireInThePast(expired.id);
      const user = await s.newUser();
      const before = await walletOf(user.userId!);
      refused(await redeem(user, disabled.key), CODE_DISABLED);
      refused(await redeem(user, expired.key), CODE_EXPIRED);
      expect(await walletOf(user.userId!)).toEqual(before);
      expect(await codeRow(disabled.id)).toMatchObject({ status: DISABLED, used_user_id: 0 });
      expect(await codeRow(expired.id)).toMatchObject({ status: UNUSED, used_user_id: 0 });
    });

    test("without a sign-in it answers 401", async () => {
      const { key, id } = await createCode();
      expect((await redeem(s.client(), key)).status).toBe(401);
      expect((await codeRow(id)).status).toBe(UNUSED);
    });

    test("50 parallel redemptions of one code by 10 users: exactly one credit and exactly one log row", async () => {
      const { id, key } = await createCode({ quota: 424242 });
      const users = await Promise.all(Array.from({ length: 10 }, () => s.newUser()));
      const ids = users.map((u) => u.userId!);
      const quotaOf = async () =>
        (await s.ctx.db.k.selectFrom("users").select("quota").where("id", "in", ids).execute()).reduce(
          (sum, row) => sum + row.quota,
          0,
        );
      const topUpLogs = () =>
        s.ctx.db.k.selectFrom("logs").selectAll().where("user_id", "in", ids).where("type", "=", 1).execute();
      const before = await quotaOf();
      const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(users[i % 10]!, key)));
      const won = replies.filter((reply) => reply.body.success);
      expect(won).toHaveLength(1);
      expect(won[0]!.body.data).toBe(424242);
      for (const reply of replies.filter((r) => !r.body.success)) expectFailure(reply, 200, CODE_USED);
      expect((await quotaOf()) - before).toBe(424242);
      const logs = await topUpLogs();
      expect(logs).toHaveLength(1);
      expect((await codeRow(id)).used_user_id).toBe(logs[0]!.user_id);
    });
  });
});

describe.each(DIALECTS)("redemption rate limit on %s", (dialect) => {
  /** CRITICAL_RATE_LIMIT=3 per address and action (each action its own window). */
  const s = useTestServer(dialect, { CRITICAL_RATE_LIMIT: "3", TRUST_PROXY: "1" });

  test("POST /api/user/topup is rate-limited per client address: 429 'too many requests, please try again later'", async () => {
    const user = await s.newUser();
    const from = { "x-forwarded-for": "198.51.100.77" };
    for (let i = 0; i < 3; i++) refused(await user.post("/api/user/topup", { key: "nope" }, from), INVALID_CODE);
    expectFailure(await user.post("/api/user/topup", { key: "nope" }, from), 429, TOO_MANY_REQUESTS);
  });
});
