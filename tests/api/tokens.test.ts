import { describe, expect, test } from "bun:test";
import { keyedHash } from "../../src/service/crypto";
import { TOKEN_LIMIT_REACHED } from "../../src/service/tokens/create";
import { WHOLE_KEY_NEEDED } from "../../src/service/tokens/list";
import { findTokenByKey } from "../../src/service/tokens/lookup";
import { CANNOT_ENABLE_EXHAUSTED, CANNOT_ENABLE_EXPIRED } from "../../src/service/tokens/rules";
import type { ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { useTestServer } from "../support/server";

/** Every field a token shows (spec §3 'Token'); the hash and the sealed key never leave the server. */
const TOKEN_VIEW_FIELDS = [
  "accessed_time",
  "allow_ips",
  "created_time",
  "cross_group_retry",
  "expired_time",
  "group",
  "id",
  "key",
  "model_limits",
  "model_limits_enabled",
  "name",
  "remain_quota",
  "rpm_limit",
  "status",
  "tpm_limit",
  "unlimited_quota",
  "used_quota",
  "user_id",
];
const KEY_FORMAT = /^sk-[0-9A-Za-z]{48}$/;
const NOT_FOUND = { success: false, message: "token not found" };
const UNKNOWN_ID = 987654321;
const now = () => Math.floor(Date.now() / 1000);

describe.each(DIALECTS)("access tokens on %s", (dialect) => {
  const s = useTestServer(dialect);

  const create = (c: ApiClient, body: Record<string, unknown>) => c.post("/api/token/", body);
  const createOne = async (c: ApiClient, body: Record<string, unknown> = {}) => {
    const reply = await create(c, { name: "main", ...body });
    expect(reply.body.success).toBe(true);
    return { id: reply.body.data.ids[0] as number, key: reply.body.data.keys[0] as string };
  };
  const tokenOf = async (c: ApiClient, id: number) => (await c.get(`/api/token/${id}`)).body.data;
  const listOf = async (c: ApiClient, query = "") => (await c.get(`/api/token/?p=1&size=100${query}`)).body.data;
  const storedRow = (id: number) => s.ctx.db.k.selectFrom("tokens").selectAll().where("id", "=", id).executeTakeFirst();
  const setStatus = (c: ApiClient, id: number, status: unknown) =>
    c.put("/api/token/?status_only=true", { id, status });
  const rawOf = (key: string) => key.slice(3);
  /** A user with tokens a and b, and a stranger with one token of theirs. */
  const twoOwnOneForeign = async () => {
    const [user, stranger] = [await s.newUser(), await s.newUser()];
    return { user, stranger, a: await createOne(user), b: await createOne(user), theirs: await createOne(stranger) };
  };

  test("without a sign-in every token call answers 401", async () => {
    const visitor = s.client();
    for (const reply of [
      await visitor.get("/api/token/"),
      await create(visitor, { name: "x" }),
      await visitor.post("/api/token/1/key"),
    ]) {
      expect(reply.status).toBe(401);
    }
  });

  describe("POST /api/token/: create", () => {
    test("returns the new key once, as sk- and 48 characters; the token shows the console's defaults and a masked key", async () => {
      const user = await s.newUser();
      const reply = await create(user, { name: "laptop" });
      expect(reply.body).toMatchObject({ success: true, message: "" });
      expect(Object.keys(reply.body.data).sort()).toEqual(["ids", "keys"]);
      const [key] = reply.body.data.keys;
      expect(key).toMatch(KEY_FORMAT);
      const shown = await user.get(`/api/token/${reply.body.data.ids[0]}`);
      expect(Object.keys(shown.body.data).sort()).toEqual(TOKEN_VIEW_FIELDS);
      expect(shown.body.data).toMatchObject({
        id: reply.body.data.ids[0],
        user_id: user.userId,
        name: "laptop",
        key: `sk-${key.slice(3, 7)}**********${key.slice(-4)}`,
        status: 1,
        remain_quota: 500000,
        unlimited_quota: false,
        used_quota: 0,
        expired_time: -1,
        model_limits_enabled: false,
        model_limits: "",
        allow_ips: "",
        group: "",
        cross_group_retry: false,
        rpm_limit: 0,
        tpm_limit: 0,
      });
      expect(JSON.stringify(shown.body)).not.toContain(rawOf(key));
    });

    test("count 3 makes three tokens: the first named as given, the others with '-' and a random 6-character suffix", async () => {
      const user = await s.newUser();
      const reply = await create(user, { name: "batch", count: 3, unlimited_quota: true });
      const { ids, keys } = reply.body.data;
      expect(ids).toHaveLength(3);
      expect(new Set(keys).size).toBe(3);
      for (const key of keys) expect(key).toMatch(KEY_FORMAT);
      const names = await Promise.all(ids.map(async (id: number) => (await tokenOf(user, id)).name));
      expect(names[0]).toBe("batch");
      for (const name of names.slice(1)) expect(name).toMatch(/^batch-[0-9A-Za-z]{6}$/);
      for (const id of ids) expect((await tokenOf(user, id)).unlimited_quota).toBe(true);
    });

    test("sets every field of the body, normalising model limits and allowed addresses", async () => {
      const user = await s.newUser();
      const expiry = now() + 3600;
      const { id } = await createOne(user, {
        name: "  tidy  ",
        remain_quota: 1234,
        expired_time: expiry,
        model_limits_enabled: true,
        model_limits: " gpt-4o, claude-3 ,gpt-4o,, ",
        allow_ips: "10.0.0.1\n192.168.0.0/16, ::1\r\n2001:db8::/32\n10.0.0.1",
        group: "vip",
        cross_group_retry: true,
      });
      expect(await tokenOf(user, id)).toMatchObject({
        name: "tidy",
        remain_quota: 1234,
        expired_time: expiry,
        model_limits_enabled: true,
        model_limits: "gpt-4o,claude-3",
        allow_ips: "10.0.0.1\n192.168.0.0/16\n::1\n2001:db8::/32",
        group: "vip",
        cross_group_retry: true,
      });
    });

    test("the database holds no whole key: only its keyed hash, a sealed copy and the mask", async () => {
      const user = await s.newUser();
      const { id, key } = await createOne(user);
      const row = (await storedRow(id))!;
      expect(JSON.stringify(row)).not.toContain(rawOf(key));
      expect(row.key_hash).toBe(keyedHash(s.ctx.secret, rawOf(key)));
      expect(row.key_masked).toBe(`sk-${key.slice(3, 7)}**********${key.slice(-4)}`);
    });

    test("findTokenByKey finds the live token by its 48 characters, and nothing for anything else", async () => {
      const user = await s.newUser();
      const { id, key } = await createOne(user);
      expect((await findTokenByKey(s.ctx, rawOf(key)))?.id).toBe(id);
      expect(await findTokenByKey(s.ctx, key)).toBeUndefined();
      expect(await findTokenByKey(s.ctx, rawOf(key).slice(1))).toBeUndefined();
    });
  });

  describe("validation: each refusal names the problem and changes nothing", () => {
    const refusals: [string, Record<string, unknown>, string][] = [
      ["no name", { name: "  " }, "name is required"],
      ["a name of 51 characters", { name: "é".repeat(51) }, "name must be at most 50 characters"],
      ["a name that is not text", { name: 5 }, "name must be a string"],
      [
        "an address that is not an IP",
        { allow_ips: "10.0.0.1\n10.0.0.300" },
        'allow_ips: "10.0.0.300" is not an IP address or CIDR range',
      ],
      [
        "a CIDR prefix too long",
        { allow_ips: "10.0.0.0/33" },
        'allow_ips: "10.0.0.0/33" is not an IP address or CIDR range',
      ],
      ["a host name", { allow_ips: "example.com" }, 'allow_ips: "example.com" is not an IP address or CIDR range'],
      ["a group the user may not use", { group: "svip" }, 'group "svip" is not available to you'],
      ["an unknown group", { group: "nobody" }, 'group "nobody" is not available to you'],
      [
        "a negative quota",
        { remain_quota: -1 },
        "remain_quota must be between 0 and 500000000000000 unless the quota is unlimited",
      ],
      [
        "a quota above 1e9 dollars",
        { remain_quota: 500000000000001 },
        "remain_quota must be between 0 and 500000000000000 unless the quota is unlimited",
      ],
      ["a fractional quota", { remain_quota: 1.5 }, "remain_quota must be an integer"],
      ["an expiry in the past", { expired_time: 1000 }, "expired_time must be in the future, or -1 for never"],
      [
        "an expiry in milliseconds",
        { expired_time: Date.now() + 60000 },
        "expired_time must be -1 (never) or a unix time in seconds",
      ],
      ["an expiry that is not a number", { expired_time: "tomorrow" }, "expired_time must be an integer"],
      ["a flag that is not a boolean", { unlimited_quota: "yes" }, "unlimited_quota must be true or false"],
      ["a count of 0", { count: 0 }, "count must be between 1 and 100"],
      ["a count of 101", { count: 101 }, "count must be between 1 and 100"],
    ];
    for (const [what, body, message] of refusals) {
      test(`create with ${what} is refused: '${message}'`, async () => {
        const user = await s.newUser();
        expect((await create(user, { name: "ok", ...body })).body).toEqual({ success: false, message });
        expect((await listOf(user)).total).toBe(0);
      });
    }

    test("a name of 50 characters of any script is accepted", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user, { name: "令".repeat(50) });
      expect((await tokenOf(user, id)).name).toBe("令".repeat(50));
    });

    test("the largest quota, 1e9 dollars, is accepted and kept exactly", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user, { remain_quota: 500000000000000 });
      expect((await tokenOf(user, id)).remain_quota).toBe(500000000000000);
    });

    test("an unlimited token takes any quota", async () => {
      const user = await s.newUser();
      expect((await create(user, { name: "u", unlimited_quota: true, remain_quota: -5 })).body.success).toBe(true);
    });

    for (const [what, body, message] of refusals.filter(
      ([, body]) => !("count" in body) && !("expired_time" in body),
    )) {
      test(`update with ${what} is refused: '${message}'`, async () => {
        const user = await s.newUser();
        const { id } = await createOne(user);
        const before = await storedRow(id);
        expect((await user.put("/api/token/", { id, ...body })).body).toEqual({ success: false, message });
        expect(await storedRow(id)).toEqual(before);
      });
    }
  });

  describe("PUT /api/token/: update", () => {
    test("full update changes the fields the body sets and answers the token; status is left alone", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user, { remain_quota: 10 });
      const reply = await user.put("/api/token/", {
        id,
        name: "renamed",
        unlimited_quota: true,
        group: "vip",
        status: 2,
      });
      expect(reply.body.success).toBe(true);
      expect(reply.body.data).toMatchObject({
        id,
        name: "renamed",
        unlimited_quota: true,
        group: "vip",
        remain_quota: 10,
        status: 1,
      });
      expect(await tokenOf(user, id)).toEqual(reply.body.data);
    });

    test("a quota that spending left below 0 does not block a rename that sends it back unchanged", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user);
      await s.ctx.db.k.updateTable("tokens").set({ remain_quota: -7 }).where("id", "=", id).execute();
      const reply = await user.put("/api/token/", { ...(await tokenOf(user, id)), name: "renamed" });
      expect(reply.body.data).toMatchObject({ name: "renamed", remain_quota: -7 });
    });

    test("a full update may set an earlier expiry: the token then shows as expired (3)", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user);
      expect((await user.put("/api/token/", { id, expired_time: now() - 60 })).body.data.status).toBe(3);
    });

    test("status_only=true changes only the status: disable then enable", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user);
      const disabled = await user.put("/api/token/?status_only=true", { id, status: 2, name: "ignored" });
      expect(disabled.body.data).toMatchObject({ status: 2, name: "main" });
      expect((await setStatus(user, id, 1)).body.data.status).toBe(1);
      expect((await storedRow(id))!.status).toBe(1);
    });

    test("status_only accepts only 1 (enabled) and 2 (disabled)", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user);
      for (const status of [3, 4, 0, -1]) {
        expect((await setStatus(user, id, status)).body).toEqual({
          success: false,
          message: "status must be 1 (enabled) or 2 (disabled)",
        });
      }
      for (const status of [null, "on", true]) {
        expect((await setStatus(user, id, status)).body).toEqual({
          success: false,
          message: "status must be an integer",
        });
      }
      expect((await storedRow(id))!.status).toBe(1);
    });

    test("enabling an expired token is refused until its expiry is extended", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user);
      await setStatus(user, id, 2);
      await user.put("/api/token/", { id, expired_time: now() - 60 });
      expect((await setStatus(user, id, 1)).body).toEqual({ success: false, message: CANNOT_ENABLE_EXPIRED });
      expect((await storedRow(id))!.status).toBe(2);
      await user.put("/api/token/", { id, expired_time: -1 });
      expect((await setStatus(user, id, 1)).body.data.status).toBe(1);
    });

    test("enabling an exhausted token is refused until it has quota or is unlimited", async () => {
      const user = await s.newUser();
      const { id } = await createOne(user, { remain_quota: 0 });
      expect((await tokenOf(user, id)).status).toBe(4);
      await setStatus(user, id, 2);
      expect((await setStatus(user, id, 1)).body).toEqual({ success: false, message: CANNOT_ENABLE_EXHAUSTED });
      expect((await storedRow(id))!.status).toBe(2);
      await user.put("/api/token/", { id, unlimited_quota: true });
      expect((await setStatus(user, id, 1)).body.data.status).toBe(1);
    });
  });

  describe("GET /api/token/ and /api/token/search", () => {
    test("list newest first with page, page_size and total; no whole key anywhere in the reply", async () => {
      const user = await s.newUser();
      const created = [
        await createOne(user, { name: "a" }),
        await createOne(user, { name: "b" }),
        await createOne(user, { name: "c" }),
      ];
      const reply = await user.get("/api/token/?p=1&size=2");
      expect(reply.body.data).toMatchObject({ page: 1, page_size: 2, total: 3 });
      expect(reply.body.data.items.map((t: { name: string }) => t.name)).toEqual(["c", "b"]);
      const second = await user.get("/api/token/?p=2&page_size=2");
      expect(second.body.data.items.map((t: { name: string }) => t.name)).toEqual(["a"]);
      const text = JSON.stringify([reply.body, second.body]);
      for (const { key } of created) expect(text).not.toContain(rawOf(key));
    });

    test("search by keyword matches part of the name, literally", async () => {
      const user = await s.newUser();
      await createOne(user, { name: "prod-api" });
      await createOne(user, { name: "staging" });
      await createOne(user, { name: "100%" });
      const names = async (q: string) =>
        (await user.get(`/api/token/search?keyword=${encodeURIComponent(q)}`)).body.data.items.map(
          (t: { name: string }) => t.name,
        );
      expect(await names("api")).toEqual(["prod-api"]);
      expect(await names("%")).toEqual(["100%"]);
      expect(await names("")).toHaveLength(3);
    });

    test("search by token matches a whole key, with or without sk-; the reply shows it masked", async () => {
      const user = await s.newUser();
      const { id, key } = await createOne(user);
      await createOne(user, { name: "other" });
      for (const token of [key, rawOf(key)]) {
        const reply = await user.get(`/api/token/search?token=${token}`);
        expect(reply.body.data.items.map((t: { id: number }) => t.id)).toEqual([id]);
        expect(JSON.stringify(reply.body)).not.toContain(rawOf(key));
      }
    });

    test("part of a key is refused: keys are stored hashed", async () => {
      const user = await s.newUser();
      const { key } = await createOne(user);
      expect((await user.get(`/api/token/search?token=${key.slice(0, 20)}`)).body).toEqual({
        success: false,
        message: WHOLE_KEY_NEEDED,
      });
    });
  });

  describe("POST /api/token/{id}/key and /api/token/batch/keys: reveal", () => {
    test("the owner gets the whole key, equal to the one created", async () => {
      const user = await s.newUser();
      const { id, key } = await createOne(user);
      expect((await user.post(`/api/token/${id}/key`)).body).toEqual({ success: true, message: "", data: { key } });
    });

    test("batch keys answers {id: key} for the caller's own tokens only", async () => {
      const { user, a, b, theirs } = await twoOwnOneForeign();
      const reply = await user.post("/api/token/batch/keys", { ids: [a.id, b.id, theirs.id, UNKNOWN_ID] });
      expect(reply.body.data).toEqual({ keys: { [a.id]: a.key, [b.id]: b.key } });
      expect((await user.post("/api/token/batch/keys", { ids: [] })).body).toEqual({
        success: false,
        message: "ids must list 1 to 100 token ids",
      });
    });
  });

  describe("DELETE /api/token/{id} and POST /api/token/batch", () => {
    test("a deleted token disappears from list, get and search, and its key stops working", async () => {
      const user = await s.newUser();
      const { id, key } = await createOne(user);
      expect((await user.delete(`/api/token/${id}/`)).body).toEqual({ success: true, message: "", data: null });
      expect((await listOf(user)).total).toBe(0);
      expect((await user.get(`/api/token/search?token=${key}`)).body.data.total).toBe(0);
      expect((await user.get(`/api/token/${id}`)).body).toEqual(NOT_FOUND);
      expect((await user.post(`/api/token/${id}/key`)).body).toEqual(NOT_FOUND);
      expect((await user.delete(`/api/token/${id}`)).body).toEqual(NOT_FOUND);
      expect(await findTokenByKey(s.ctx, rawOf(key))).toBeUndefined();
      expect((await storedRow(id))!.deleted_at).toBeGreaterThan(0);
    });

    test("batch delete removes the caller's own tokens and answers how many", async () => {
      const { user, stranger, a, b, theirs } = await twoOwnOneForeign();
      expect((await user.post("/api/token/batch", { ids: [a.id, b.id, theirs.id] })).body.data).toBe(2);
      expect((await listOf(user)).total).toBe(0);
      expect((await listOf(stranger)).total).toBe(1);
    });
  });

  describe("at most 1000 live tokens per user", () => {
    test("the 1001st is refused; deleted tokens do not count", async () => {
      const user = await s.newUser();
      const filler = Array.from({ length: 998 }, (_, i) => ({
        user_id: user.userId!,
        key_hash: `fill-${user.userId}-${i}`,
        key_sealed: "",
        key_masked: "",
        created_time: 1,
      }));
      await s.ctx.db.k.insertInto("tokens").values(filler).execute();
      const last = await createOne(user);
      expect((await create(user, { name: "two", count: 2 })).body).toEqual({
        success: false,
        message: "that would pass the maximum number of tokens (1000): 1 more can be created",
      });
      await createOne(user);
      expect((await create(user, { name: "over" })).body).toEqual({ success: false, message: TOKEN_LIMIT_REACHED });
      expect((await listOf(user)).total).toBe(1000);
      await user.delete(`/api/token/${last.id}`);
      await createOne(user);
    });
  });

  describe("a user reaches only their own tokens", () => {
    test("another user's token id answers exactly like an unknown id on every route, and nothing changes", async () => {
      const owner = await s.newUser();
      const intruder = await s.newUser();
      const { id, key } = await createOne(owner);
      const before = await storedRow(id);
      const attempts = (target: number) => [
        () => intruder.get(`/api/token/${target}`),
        () => intruder.put("/api/token/", { id: target, name: "stolen", unlimited_quota: true }),
        () => intruder.put("/api/token/?status_only=true", { id: target, status: 2 }),
        () => intruder.post(`/api/token/${target}/key`),
        () => intruder.delete(`/api/token/${target}`),
      ];
      const unknown = attempts(UNKNOWN_ID);
      for (const [i, attempt] of attempts(id).entries()) {
        const theirs = await attempt();
        const missing = await unknown[i]!();
        expect({ status: theirs.status, body: theirs.body }).toEqual({ status: missing.status, body: missing.body });
        expect(theirs.body).toEqual(NOT_FOUND);
        expect(JSON.stringify(theirs.body)).not.toContain(rawOf(key));
      }
      expect(await storedRow(id)).toEqual(before);
      expect((await listOf(intruder)).total).toBe(0);
      expect((await intruder.get(`/api/token/search?token=${key}`)).body.data.total).toBe(0);
    });
  });

  test("every committed change is announced on the change bus with the token's id", async () => {
    const user = await s.newUser();
    const seen: (number | undefined)[] = [];
    const stop = s.ctx.changes.on("tokens", (id) => seen.push(id));
    try {
      const reply = await create(user, { name: "bus", count: 2 });
      const [a, b] = reply.body.data.ids;
      await user.put("/api/token/", { id: a, name: "bus2" });
      await setStatus(user, a, 2);
      await user.delete(`/api/token/${a}`);
      await user.post("/api/token/batch", { ids: [b] });
      expect(seen).toEqual([a, b, a, a, a, b]);
    } finally {
      stop();
    }
  });
});
