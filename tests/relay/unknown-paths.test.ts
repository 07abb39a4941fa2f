import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "./support";

describe.each(DIALECTS)("unknown API paths on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
  });
  afterAll(() => r.stop());

  const reply = async (method: string, path: string) => {
    const response = await fetch(`${r.s.url}${path}`, { method, headers: { authorization: `Bearer ${r.key}` } });
    expect({ path, status: response.status, type: response.headers.get("content-type") }).toEqual({
      path,
      status: 404,
      type: "application/json; charset=utf-8",
    });
    return response.json();
  };

  test("/v1, /pg, /dashboard and /suno answer OpenAI's error shape, never the console's page", async () => {
    for (const [method, path] of [
      ["GET", "/v1/nope"],
      ["POST", "/v1/images/nope"],
      ["GET", "/pg/nope"],
      ["GET", "/dashboard/nope"],
      ["GET", "/suno/nope"],
    ] as const) {
      expect(await reply(method, path)).toEqual({
        error: { message: `Invalid URL (${method} ${path})`, type: "invalid_request_error", param: "", code: "" },
      });
    }
  });

  test("/mj and a mode's /mj answer the Midjourney shape {description, type, code} (compat §0.1)", async () => {
    for (const [method, path] of [
      ["GET", "/mj/nope"],
      ["POST", "/relax/mj/submit/imagine/extra"],
      ["GET", "/mj/task/1/fetch"],
    ] as const) {
      const body = await reply(method, path);
      expect(Object.keys(body).sort()).toEqual(["code", "description", "type"]);
      expect(body.code).toBe(3);
    }
  });

  test("/v1beta answers Google's error shape", async () => {
    for (const [method, path] of [
      ["GET", "/v1beta/nope"],
      ["POST", "/v1beta/nope/x:generateContent"],
    ] as const) {
      expect(await reply(method, path)).toEqual({
        error: { code: 404, message: `Invalid URL (${method} ${path})`, status: "NOT_FOUND" },
      });
    }
  });

  test("/api answers the management envelope", async () => {
    expect(await reply("GET", "/api/nope")).toEqual({ success: false, message: "Invalid URL (GET /api/nope)" });
  });
});
