import { beforeAll, describe, expect, spyOn, test } from "bun:test";
import { INTERNAL_ERROR } from "../../src/gateway/app";
import { TOO_MANY_REQUESTS } from "../../src/gateway/api/rate-limit";
import { expectFailure, type ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { countRows, setUserFields, userRow } from "../support/rows";
import { ROOT_PASSWORD, uniqueName, useTestServer } from "../support/server";

let addressCounter = 0;
/** A client address of its own, honoured because the server trusts X-Forwarded-For (TRUST_PROXY). */
const newAddress = () => ({ "x-forwarded-for": `198.51.100.${++addressCounter}` });

const TOO_LARGE = "request body is too large";

describe.each(DIALECTS)("limits and error envelopes on %s", (dialect) => {
  /** CRITICAL_RATE_LIMIT=3 per address (addresses from X-Forwarded-For), API_BODY_LIMIT_KB=1. */
  const limited = useTestServer(dialect, { CRITICAL_RATE_LIMIT: "3", TRUST_PROXY: "1", API_BODY_LIMIT_KB: "1" });

  describe("login, register and setup are rate-limited per client address: 429 'too many requests, please try again later'", () => {
    test("the fourth sign-in attempt in the window is refused, even with the right password", async () => {
      const c = limited.client();
      const from = newAddress();
      for (let i = 0; i < 3; i++) {
        expect((await c.post("/api/user/login", { username: "root", password: "wrong-pass" }, from)).status).toBe(200);
      }
      expectFailure(
        await c.post("/api/user/login", { username: "root", password: ROOT_PASSWORD }, from),
        429,
        TOO_MANY_REQUESTS,
      );
      expect(c.cookie).toBe("");
    });

    test("login and registration each have their own window: spent sign-ins leave registration open", async () => {
      const c = limited.client();
      const from = newAddress();
      for (let i = 0; i < 3; i++) await c.post("/api/user/login", { username: "root", password: "wrong-pass" }, from);
      expectFailure(
        await c.post("/api/user/login", { username: "root", password: ROOT_PASSWORD }, from),
        429,
        TOO_MANY_REQUESTS,
      );
      const name = uniqueName();
      expect((await c.post("/api/user/register", { username: name, password: "password123" }, from)).body.success).toBe(
        true,
      );
      await c.post("/api/setup", { username: "x", password: "password123", confirmPassword: "password123" }, from);
      await c.post("/api/user/register", { username: uniqueName(), password: "password123" }, from);
      expectFailure(
        await c.post("/api/user/register", { username: uniqueName(), password: "password123" }, from),
        429,
        TOO_MANY_REQUESTS,
      );
      expectFailure(await c.post("/api/setup", {}, from), 429, TOO_MANY_REQUESTS);
    });

    test("each address has its own window, and other calls are not limited", async () => {
      const c = limited.client();
      const from = newAddress();
      for (let i = 0; i < 4; i++) await c.post("/api/user/login", { username: "root", password: "wrong-pass" }, from);
      expectFailure(await c.post("/api/user/login", {}, from), 429, TOO_MANY_REQUESTS);
      expect(
        (await c.post("/api/user/login", { username: "root", password: ROOT_PASSWORD }, newAddress())).body.success,
      ).toBe(true);
      expect((await c.get("/api/status", from)).status).toBe(200);
      expect((await limited.root.get("/api/user/self", from)).status).toBe(200);
    });
  });

  describe("a body over API_BODY_LIMIT_KB: 413 'request body is too large', and nothing changed", () => {
    const padding = "x".repeat(2048);

    test("a too-large registration creates no user", async () => {
      const users = await countRows(limited.ctx, "users");
      const name = uniqueName();
      const reply = await limited
        .client()
        .post("/api/user/register", { username: name, password: "password123", padding }, newAddress());
      expectFailure(reply, 413, TOO_LARGE);
      expect(await countRows(limited.ctx, "users")).toBe(users);
    });

    test("a too-large profile update changes nothing, whether its length is declared or streamed", async () => {
      const root = limited.root;
      const before = await userRow(limited.ctx, root.userId!);
      expectFailure(await root.put("/api/user/self", { display_name: "Big", padding }), 413, TOO_LARGE);
      const json = new TextEncoder().encode(JSON.stringify({ display_name: "Big", padding }));
      const chunked = new ReadableStream({
        start(controller) {
          for (let at = 0; at < json.length; at += 512) controller.enqueue(json.slice(at, at + 512));
          controller.close();
        },
      });
      const streamed = await fetch(`${limited.url}/api/user/self`, {
        method: "PUT",
        headers: { cookie: root.cookie, "new-api-user": String(root.userId), "content-type": "application/json" },
        body: chunked,
      });
      expect({ status: streamed.status, body: await streamed.json() }).toEqual({
        status: 413,
        body: { success: false, message: TOO_LARGE },
      });
      expect(await userRow(limited.ctx, root.userId!)).toEqual(before);
    });

    test("a body within the limit is accepted", async () => {
      const reply = await limited.root.put("/api/user/self", { display_name: "Small", padding: "x".repeat(900) });
      expect(reply.body.success).toBe(true);
    });
  });

  describe("malformed input and unknown paths answer with the envelope", () => {
    test("malformed JSON: 400 'request body is not valid JSON'", async () => {
      const reply = await limited.root.put("/api/user/self", '{"display_name": "x"', {
        "content-type": "application/json",
      });
      expectFailure(reply, 400, "request body is not valid JSON");
      const login = await limited
        .client()
        .post("/api/user/login", "username=root", { ...newAddress(), "content-type": "application/json" });
      expectFailure(login, 400, "request body is not valid JSON");
    });

    test("JSON that is not an object: 400 'request body must be a JSON object'", async () => {
      for (const body of ["[1,2]", '"text"', "42", "null"]) {
        expectFailure(await limited.root.put("/api/user/self", body), 400, "request body must be a JSON object");
      }
    });

    test("an unknown /api path: 404 'Invalid URL (<METHOD> <path>)'", async () => {
      const c = limited.client();
      expectFailure(await c.get("/api/nope"), 404, "Invalid URL (GET /api/nope)");
      expectFailure(await c.post("/api/nope/deeper?x=1"), 404, "Invalid URL (POST /api/nope/deeper)");
      expectFailure(await limited.root.delete("/api/user/selfie"), 404, "Invalid URL (DELETE /api/user/selfie)");
    });
  });

  describe("each action has a window of its own (default limits)", () => {
    const s = useTestServer(dialect, { TRUST_PROXY: "1", CRITICAL_RATE_LIMIT: "" });

    test("a user who reveals 25 keys can still sign in from the same address", async () => {
      const user = await s.newUser();
      const from = newAddress();
      const created = await user.post("/api/token/", { name: "many", remain_quota: 1 });
      const id = created.body.data.ids[0];
      for (let i = 0; i < 25; i++) expect((await user.post(`/api/token/${id}/key`, {}, from)).body.success).toBe(true);
      expect(
        (await s.client().post("/api/user/login", { username: user.username, password: "password123" }, from)).body
          .success,
      ).toBe(true);
    });
  });

  describe("X-Forwarded-For without TRUST_PROXY", () => {
    const s = useTestServer(dialect, { CRITICAL_RATE_LIMIT: "3" });

    test("is ignored: a forged address does not open a new window", async () => {
      const c = s.client();
      let last = await c.post("/api/user/login", {});
      for (let i = 0; i < 3 && last.status !== 429; i++) last = await c.post("/api/user/login", {});
      expectFailure(last, 429, TOO_MANY_REQUESTS);
      expectFailure(await c.post("/api/user/login", {}, newAddress()), 429, TOO_MANY_REQUESTS);
    });
  });

  describe("an internal error", () => {
    const s = useTestServer(dialect);
    let user: ApiClient;
    beforeAll(async () => {
      user = await s.newUser();
      await setUserFields(s.ctx, user.userId!, { aff_quota: 2 * s.ctx.options.num("QuotaPerUnit") });
      await s.ctx.db.k.schema.dropTable("logs").execute();
    });

    test("answers 500 'internal server error, contact the administrator' with no stack trace or SQL, and rolls back", async () => {
      const logged = spyOn(console, "error").mockImplementation(() => {});
      try {
        const before = await userRow(s.ctx, user.userId!);
        const reply = await user.post("/api/user/aff_transfer", { quota: s.ctx.options.num("QuotaPerUnit") });
        expectFailure(reply, 500, INTERNAL_ERROR);
        expect(reply.headers.get("content-type")).toContain("application/json");
        expect(await userRow(s.ctx, user.userId!)).toEqual(before);
        expect(logged).toHaveBeenCalled();
      } finally {
        logged.mockRestore();
      }
    });
  });
});
