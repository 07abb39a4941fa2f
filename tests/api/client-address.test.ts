import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/service/config";
import { startRelayEnv, type RelayEnv } from "../relay/support";
import type { ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";
import { startTestServer, useTestServer } from "../support/server";

let counter = 0;
/** A left part the client writes itself: a new forged address on every call. */
const forged = () => `203.0.113.${++counter % 250}`;

/** Thirty wrong guesses from one real address, each with a new forged left part; answers the statuses. */
async function guessesWithForgedLeftParts(c: ApiClient, header: (left: string) => string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) {
    const reply = await c.post(
      "/api/user/login",
      { username: "root", password: `guess-${i}` },
      { "x-forwarded-for": header(forged()) },
    );
    statuses.push(reply.status);
  }
  return statuses;
}

const FIVE_THEN_REFUSED = [...Array(5).fill(200), ...Array(25).fill(429)];

describe.each(DIALECTS)("the client address behind proxies on %s", (dialect) => {
  describe("TRUST_PROXY=1: the address is the right-most X-Forwarded-For entry, the one the proxy appended", () => {
    const s = useTestServer(dialect, { TRUST_PROXY: "1", LOGIN_RATE_LIMIT: "5/600" });

    test("a forged left part does not escape the sign-in limit: 30 guesses against a limit of 5 are refused after 5", async () => {
      const statuses = await guessesWithForgedLeftParts(s.client(), (left) => `${left}, 198.51.100.10`);
      expect(statuses).toEqual(FIVE_THEN_REFUSED);
    });

    test("another real address still has its own window", async () => {
      const reply = await s.client().post("/api/user/login", {}, { "x-forwarded-for": `${forged()}, 198.51.100.11` });
      expect(reply.status).toBe(200);
    });
  });

  describe("TRUST_PROXY=2: two proxies, the address is the second entry from the right", () => {
    const s = useTestServer(dialect, { TRUST_PROXY: "2", LOGIN_RATE_LIMIT: "5/600" });

    test("a forged left part does not escape the sign-in limit", async () => {
      const statuses = await guessesWithForgedLeftParts(s.client(), (left) => `${left}, 198.51.100.20, 10.0.0.7`);
      expect(statuses).toEqual(FIVE_THEN_REFUSED);
    });
  });

  describe("TRUSTED_PROXIES: the right-most address that is not a trusted proxy, when the peer is one", () => {
    const s = useTestServer(dialect, { TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8", LOGIN_RATE_LIMIT: "5/600" });

    test("a forged left part does not escape the sign-in limit, however many trusted hops follow the client", async () => {
      const statuses = await guessesWithForgedLeftParts(
        s.client(),
        (left) => `${left}, 198.51.100.30, 10.1.2.3, 10.0.0.9`,
      );
      expect(statuses).toEqual(FIVE_THEN_REFUSED);
    });

    test("a peer that is not a trusted proxy is the client, whatever X-Forwarded-For says", async () => {
      const server = await startTestServer(dialect, { TRUSTED_PROXIES: "10.0.0.0/8", LOGIN_RATE_LIMIT: "2/600" });
      try {
        const c = server.client();
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++)
          statuses.push((await c.post("/api/user/login", {}, { "x-forwarded-for": forged() })).status);
        // Root's sign-in at the server's start took one of 127.0.0.1's two.
        expect(statuses).toEqual([200, 429, 429, 429]);
      } finally {
        await server.stop();
      }
    });
  });

  describe("the relay's log row keeps the right-hand address", () => {
    let r: RelayEnv;
    beforeAll(async () => {
      r = await startRelayEnv(dialect, { TRUST_PROXY: "1" });
      await r.setPrices({ "test-chat": 1 });
      await r.addChannel({ models: "test-chat" });
    });
    afterAll(() => r.stop());

    const chatFrom = (forwardedFor: string) =>
      fetch(`${r.s.url}/v1/chat/completions`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${r.key}`,
          "content-type": "application/json",
          "x-forwarded-for": forwardedFor,
        },
        body: JSON.stringify({ model: "test-chat", messages: [{ role: "user", content: "hi" }] }),
      });

    test("a forged left part is not what the log row records", async () => {
      expect((await chatFrom("203.0.113.66, 198.51.100.40")).status).toBe(200);
      expect((await r.consumeLogs()).at(-1)).toMatchObject({ ip: "198.51.100.40" });
    });

    test("an entry there that is not an IP address is not believed: the socket's address stands", async () => {
      expect((await chatFrom("203.0.113.66, not-an-address")).status).toBe(200);
      expect((await r.consumeLogs()).at(-1)).toMatchObject({ ip: "127.0.0.1" });
    });
  });
});

describe("TRUST_PROXY and TRUSTED_PROXIES settings", () => {
  test("a wrong value stops the start with a message naming the setting", () => {
    expect(() => loadConfig({ TRUST_PROXY: "yes please" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8, proxy.local" })).toThrow(/TRUSTED_PROXIES: "proxy.local"/);
    expect(() => loadConfig({ TRUST_PROXY: "1", TRUSTED_PROXIES: "10.0.0.1" })).toThrow(/not both/);
  });

  test("TRUST_PROXY keeps its earlier spellings", () => {
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toEqual({ kind: "hops", hops: 1 });
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toEqual({ kind: "hops", hops: 1 });
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toEqual({ kind: "none" });
    expect(loadConfig({}).trustProxy).toEqual({ kind: "none" });
  });
});
