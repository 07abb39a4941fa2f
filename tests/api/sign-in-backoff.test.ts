import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { createApp } from "../../src/gateway/app";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import { tooManyFailures } from "../../src/service/accounts/login-backoff";
import { WRONG_CREDENTIALS } from "../../src/service/accounts/login";
import type { ServiceContext } from "../../src/service/context";
import { ApiClient, expectFailure, type Reply } from "../support/client";
import { DIALECTS, TEST_REDIS_URL } from "../support/databases";
import { openTestContext, uniqueName, useTestServer, type TestServer } from "../support/server";

const PASSWORD = "password123";

let addresses = 0;
/** A new client address each call (the server trusts one proxy hop). */
const newAddress = () => ({ "x-forwarded-for": `198.51.${100 + Math.floor(++addresses / 250)}.${addresses % 250}` });

const signIn = (c: ApiClient, username: string, password: string, from = newAddress()) =>
  c.post("/api/user/login", { username, password }, from);

/** `n` wrong guesses at `username`, each from an address of its own; answers the replies. */
async function guesses(c: ApiClient, username: string, n: number): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < n; i++) replies.push(await signIn(c, username, `wrong-${i}`));
  return replies;
}

const expectRead = (reply: Reply) => expectFailure(reply, 200, WRONG_CREDENTIALS);
const expectWait = (reply: Reply, seconds: number) => expectFailure(reply, 429, tooManyFailures(seconds));

/** The server's clock stands still in these tests, so a wait ends only when a test moves the clock on. */
let clock = 0;
const moveClock = (seconds: number) => setSystemTime((clock += seconds * 1000));

const BACKOFF = { TRUST_PROXY: "1", LOGIN_BACKOFF_AFTER: "5", LOGIN_BACKOFF_MAX_SECONDS: "8" };

function backoffTests(name: string, server: () => TestServer) {
  describe(name, () => {
    let username: string;
    beforeEach(async () => {
      username = (await server().newUser(uniqueName("b"), PASSWORD)).username;
      clock = Date.now();
      setSystemTime(clock);
    });
    afterEach(() => setSystemTime());

    test("after 5 wrong passwords, each from another address, the next attempt must wait 2 s: refused unread, the right password too", async () => {
      const c = server().client();
      for (const reply of await guesses(c, username, 5)) expectRead(reply);
      expectWait(await signIn(c, username, PASSWORD), 2);
      expectWait(await signIn(c, username, "wrong-again"), 2);
      expect(c.cookie).toBe("");
    });

    test("30 guesses from 30 addresses in a moment: 5 are read, 25 refused", async () => {
      const replies = await guesses(server().client(), username, 30);
      expect(replies.map((r) => r.status)).toEqual([...Array(5).fill(200), ...Array(25).fill(429)]);
    });

    test("the waits double with each further failure, up to LOGIN_BACKOFF_MAX_SECONDS; refused attempts do not lengthen them", async () => {
      const c = server().client();
      await guesses(c, username, 5);
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        const refused = await signIn(c, username, "wrong");
        waits.push(Number(/in (\d+) second/.exec(refused.body.message)![1]));
        moveClock(waits.at(-1)!);
        expectRead(await signIn(c, username, "wrong"));
      }
      expect(waits).toEqual([2, 4, 8, 8]);
    });

    test("it is a delay, not a lockout: once the wait is over the right password signs in, and that clears the count", async () => {
      const c = server().client();
      await guesses(c, username, 5);
      expectWait(await signIn(c, username, PASSWORD), 2);
      moveClock(2);
      expect((await signIn(c, username, PASSWORD)).body.success).toBe(true);
      for (const reply of await guesses(server().client(), username, 5)) expectRead(reply);
      expectWait(await signIn(c, username, PASSWORD), 2);
    });

    test("others' guesses do not keep the owner out at an address the account signed in from", async () => {
      const home = newAddress();
      const owner = server().client();
      expect((await signIn(owner, username, PASSWORD, home)).body.success).toBe(true);
      const attacker = server().client();
      for (let i = 0; i < 3; i++) {
        await guesses(attacker, username, 10);
        expect((await signIn(owner, username, PASSWORD, home)).body.success).toBe(true);
      }
      expectWait(await signIn(attacker, username, PASSWORD), 2);
    });

    test("at a known address the account's guesses are counted on their own, with the same waits", async () => {
      const home = newAddress();
      const c = server().client();
      expect((await signIn(c, username, PASSWORD, home)).body.success).toBe(true);
      for (let i = 0; i < 5; i++) expectRead(await signIn(c, username, "wrong", home));
      expectWait(await signIn(c, username, PASSWORD, home), 2);
    });

    test("a name nobody has is held back the same way, so the waits do not tell which names exist", async () => {
      const nobody = uniqueName("nobody");
      const c = server().client();
      for (const reply of await guesses(c, nobody, 5)) expectRead(reply);
      expectWait(await signIn(c, nobody, "anything"), 2);
    });
  });
}

describe.each(DIALECTS)("sign-in backoff per account on %s", (dialect) => {
  const memory = useTestServer(dialect, BACKOFF);
  backoffTests("kept in memory", () => memory);

  const redis = useTestServer(dialect, { ...BACKOFF, REDIS_CONN_STRING: TEST_REDIS_URL });
  backoffTests("kept in Redis", () => redis);

  describe("with Redis, across instances", () => {
    let other: { ctx: ServiceContext; app: ReturnType<typeof createApp> };
    beforeAll(async () => {
      const ctx = await openTestContext(redis.database, { ...BACKOFF, REDIS_CONN_STRING: TEST_REDIS_URL });
      await bootstrapRoot(ctx);
      other = { ctx, app: createApp(ctx).listen({ port: 0, hostname: "127.0.0.1" }) };
    });
    afterAll(async () => {
      await other.app.stop(true);
      await other.ctx.close();
    });

    test("failures on one instance hold back attempts on another", async () => {
      const username = (await redis.newUser(uniqueName("x"), PASSWORD)).username;
      for (const reply of await guesses(redis.client(), username, 5)) expectRead(reply);
      const elsewhere = new ApiClient(`http://127.0.0.1:${other.app.server!.port}`);
      expect((await signIn(elsewhere, username, PASSWORD)).status).toBe(429);
    });
  });
});
