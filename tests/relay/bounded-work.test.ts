import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadTokenizers } from "../../src/service/billing/estimate";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "./support";

/**
 * Hardening: one request must never freeze the gateway. A prompt is counted with a BPE tokenizer whose merge
 * step is quadratic in a pre-token's length; these are the payloads that held the event loop for seconds to
 * minutes (a run of one repeated character), sent while /api/status is asked in parallel.
 */
const STATUS_BOUND_MS = 750;

const run = (n: number) => "a".repeat(n);
/** Random text without spaces: every pre-token is new to the encoder's cache (its slowest per character). */
function randomLetters(n: number): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz网关调用账费用";
  let text = "";
  for (let i = 0; i < n; i++) text += alphabet[(i * 7919 + ((i * i) % 31)) % alphabet.length];
  return text;
}

/** Asks /api/status every 50 ms while `work` runs; returns the slowest answer's time. */
async function slowestStatusDuring(env: RelayEnv, work: Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const reply = await fetch(`${env.s.url}/api/status`);
      expect(reply.status).toBe(200);
      await reply.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      await Bun.sleep(50);
    }
  })();
  await work.finally(() => (done = true));
  await probe;
  return slowest;
}

const post = (env: RelayEnv, path: string, body: unknown, key = env.key) =>
  fetch(`${env.s.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe.each(DIALECTS)("a request's token estimate never stalls the gateway on %s", (dialect) => {
  let env: RelayEnv;
  let poorKey: string;

  beforeAll(async () => {
    // An encoding loads once per process, on the first long prompt (a few hundred ms); the tests time the
    // counting, not that one load.
    await loadTokenizers();
    env = await startRelayEnv(dialect);
    await env.addChannel({ models: "gpt-4o-mini,text-embedding-3-small,rerank-1", group: "default" });
    await env.setPrices({ "gpt-4o-mini": 0.075, "text-embedding-3-small": 0.01, "rerank-1": 0.01 });
    const poor = await env.s.newUser();
    poorKey = (await env.newKey({ unlimited_quota: true }, poor)).key;
  });
  afterAll(() => env.stop());

  const payloads: [string, string, (text: string) => unknown][] = [
    [
      "chat messages",
      "/v1/chat/completions",
      (text) => ({ model: "gpt-4o-mini", messages: [{ role: "user", content: text }] }),
    ],
    ["completions prompt", "/v1/completions", (text) => ({ model: "gpt-4o-mini", prompt: text })],
    ["embeddings input", "/v1/embeddings", (text) => ({ model: "text-embedding-3-small", input: [text] })],
    ["rerank documents", "/v1/rerank", (text) => ({ model: "rerank-1", query: "q", documents: [text] })],
  ];

  for (const [what, path, body] of payloads) {
    test(`a user with 0 quota sending 3 MB of one repeated character as ${what} is refused at once with 403`, async () => {
      const reply = post(env, path, body(run(3_000_000)), poorKey);
      const slowest = await slowestStatusDuring(env, reply);
      const answered = await reply;
      expect(answered.status).toBe(403);
      expect((await answered.json()).error.code).toBe("insufficient_user_quota");
      expect(slowest).toBeLessThan(STATUS_BOUND_MS);
    });
  }

  for (const [size, text] of [
    ["60 KB", run(60_000)],
    ["120 KB", run(120_000)],
    ["3 MB", run(3_000_000)],
    ["1 MB of random letters", randomLetters(1_000_000)],
  ] as const) {
    test(`a paying user's ${size} chat prompt is counted while /api/status keeps answering, and relayed`, async () => {
      const reply = post(env, "/v1/chat/completions", {
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: text }],
      });
      const slowest = await slowestStatusDuring(env, reply);
      expect((await reply).status).toBe(200);
      expect(slowest).toBeLessThan(STATUS_BOUND_MS);
    });
  }

  test("a stream without usage whose reply is 3 MB of one character is billed from a bounded count", async () => {
    env.fake.queueBehavior({ content: ` ${run(3_000_000)}`, noUsage: true });
    const reply = post(env, "/v1/chat/completions", {
      model: "gpt-4o-mini",
      stream: true,
      messages: [{ role: "user", content: "hi" }],
    });
    const slowest = await slowestStatusDuring(
      env,
      reply.then((r) => r.text()),
    );
    expect((await reply).status).toBe(200);
    expect(slowest).toBeLessThan(STATUS_BOUND_MS);
    const [last] = (await env.consumeLogs()).slice(-1);
    // "aaaaaaaa" is one o200k token: 3 MB of "a" is 375 000 tokens.
    expect(last.completion_tokens).toBeGreaterThan(370_000);
    expect(last.completion_tokens).toBeLessThan(380_000);
  });
});

test("an estimate of a 200 KB prompt of prose is within 1 % of the encoder's own count", async () => {
  const { countTextTokens } = await import("../../src/service/billing/estimate");
  const encoder = require("gpt-tokenizer/encoding/o200k_base");
  const prose = "The gateway meters every call, bills it and keeps its log row; 网关为每一次调用计费。 ".repeat(2500);
  const exact = encoder.countTokens(prose);
  expect(Math.abs(countTextTokens("gpt-4o", prose) - exact) / exact).toBeLessThan(0.01);
});

describe.each(DIALECTS)("a body nested a million deep on %s", (dialect) => {
  let env: RelayEnv;
  beforeAll(async () => {
    env = await startRelayEnv(dialect);
    await env.addChannel({ models: "gpt-4o-mini,text-embedding-3-small", group: "default" });
    await env.setPrices({ "gpt-4o-mini": 0.075, "text-embedding-3-small": 0.01 });
  });
  afterAll(() => env.stop());
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

  for (const [path, body] of [
    ["/v1/embeddings", `{"model":"text-embedding-3-small","input":${deep(1_000_000)}}`],
    ["/v1/responses", `{"model":"gpt-4o-mini","input":${deep(1_000_000)}}`],
    [
      "/v1/chat/completions",
      `{"model":"gpt-4o-mini","messages":[],"tools":[{"function":{"name":"f","parameters":${deep(1_000_000)}}}]}`,
    ],
  ]) {
    test(`${path} answers 400 in the dialect's shape and charges nothing`, async () => {
      const before = await env.userRow();
      const reply = await fetch(`${env.s.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${env.key}`, "content-type": "application/json" },
        body,
      });
      expect(reply.status).toBe(400);
      const error = (await reply.json()).error;
      expect(error.message).toContain("nested too deeply");
      expect(error.type).toBe("invalid_request_error");
      expect(await env.userRow()).toEqual(before);
      expect(env.fake.requests.filter((r) => r.path === path)).toHaveLength(0);
    });
  }
});

describe("a request with thousands of headers", () => {
  let env: RelayEnv;
  beforeAll(async () => (env = await startRelayEnv("sqlite")));
  afterAll(() => env.stop());

  test("is refused by the runtime with 431 before any of our code runs, and the server keeps answering", async () => {
    const { port } = new URL(env.s.url);
    let head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${env.key}\r\n`;
    for (let i = 0; i < 5000; i++) head += `x-h${i}: v\r\n`;
    const statusLine = await new Promise<string>((resolve, reject) => {
      let received = "";
      Bun.connect({
        hostname: "127.0.0.1",
        port: Number(port),
        socket: {
          open: (socket) => void socket.write(`${head}content-length: 2\r\n\r\n{}`),
          data: (socket, data) => {
            received += data.toString();
            if (received.includes("\r\n")) socket.end();
          },
          close: () => resolve(received.split("\r\n")[0]!),
          error: (_socket, error) => reject(error),
        },
      });
    });
    expect(statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect((await fetch(`${env.s.url}/api/status`)).status).toBe(200);
  });
});
