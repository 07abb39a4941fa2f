import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { easeUpstreamThread, SCHED_BATCH, setThreadPolicy, threadPolicy, threadsNamed, UPSTREAM_THREAD_NAME } from "../../src/gateway/upstream-thread";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { relayThrough, startServeProcess } from "../support/serve-process";

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
    let dir: string;
    let fake: FakeUpstream;
    let servers: Subprocess[] = [];
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "tollgate-thread-"));
      fake = startFakeUpstream();
    });
    afterEach(async () => {
      for (const server of servers) server.kill("SIGKILL");
      servers = [];
      await fake.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The policies of the server's upstream threads, polled until `until` holds or 4 s pass. */
    async function upstreamPolicies(env: Record<string, string>, until: (policies: number[]) => boolean): Promise<number[]> {
      const server = await startServeProcess(dir, join(dir, "t.db"), env);
      servers.push(server.process);
      expect(threadsNamed(UPSTREAM_THREAD_NAME, server.process.pid)).toEqual([]);
      await relayThrough(server.url, fake.url, 2);
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
