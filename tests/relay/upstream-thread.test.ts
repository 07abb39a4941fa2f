import { describe, expect, test } from "bun:test";
import { easeUpstreamThread, SCHED_BATCH, setThreadPolicy, threadPolicy, threadsNamed, UPSTREAM_THREAD_NAME } from "../../src/gateway/upstream-thread";
import { relayThrough, useServeFixture } from "../support/serve-process";

const SCHED_OTHER = 0;

describe("the upstream thread runs as SCHED_BATCH", () => {
  test("easeUpstreamThread sets the policy on this process's HTTP client thread", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
    try {
      expect(await (await fetch(server.url)).text()).toBe("ok");
      const tids = threadsNamed(UPSTREAM_THREAD_NAME);
      expect(tids.length).toBeGreaterThan(0);
      await setThreadPolicy(tids, SCHED_OTHER);
      expect(tids.map(threadPolicy)).toEqual(tids.map(() => SCHED_OTHER));
      expect(await easeUpstreamThread()).toEqual(tids);
      expect(tids.map(threadPolicy)).toEqual(tids.map(() => SCHED_BATCH));
    } finally {
      await setThreadPolicy(threadsNamed(UPSTREAM_THREAD_NAME), SCHED_OTHER);
      await server.stop(true);
    }
  });

  describe("in a serving gateway", () => {
    const f = useServeFixture("tollgate-thread-");

    /** The policies of the server's upstream threads, polled until `until` holds or 4 s pass. */
    async function upstreamPolicies(env: Record<string, string>, until: (policies: number[]) => boolean): Promise<number[]> {
      const server = await f.start(env);
      expect(threadsNamed(UPSTREAM_THREAD_NAME, server.process.pid)).toEqual([]);
      await relayThrough(server.url, f.fake.url, 2);
      let policies: number[] = [];
      for (let waited = 0; waited < 4000; waited += 100) {
        policies = threadsNamed(UPSTREAM_THREAD_NAME, server.process.pid).map(threadPolicy);
        if (policies.length > 0 && until(policies)) break;
        await Bun.sleep(100);
      }
      return policies;
    }

    test("after the first relayed call the server's upstream thread is SCHED_BATCH", async () => {
      const policies = await upstreamPolicies({}, (p) => p.every((policy) => policy === SCHED_BATCH));
      expect(policies.length).toBeGreaterThan(0);
      expect(policies.every((policy) => policy === SCHED_BATCH)).toBe(true);
    }, 20_000);

    test("UPSTREAM_THREAD_BATCH=0 leaves the default policy", async () => {
      const policies = await upstreamPolicies({ UPSTREAM_THREAD_BATCH: "0" }, () => false);
      expect(policies.length).toBeGreaterThan(0);
      expect(policies.every((policy) => policy === SCHED_OTHER)).toBe(true);
    }, 20_000);
  });
});
