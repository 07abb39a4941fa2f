/**
 * A gateway test server for an agent CLI: one channel on the given fake upstream serving the CLI's
 * models, prices set, and the exact billing of every call the CLI made checked against the fake's usage.
 */
import { afterAll, beforeAll, expect } from "bun:test";
import type { DialectName } from "../../../src/db/connect";
import { expectedQuota, type RelayEnv, startRelayEnv } from "../../relay/support";
import type { FakeBehavior, FakeUpstream } from "../../support/fake-upstream";
import { type CliSandbox, makeSandbox } from "./run-cli";

export const RATIO = 2;
export const COMPLETION_RATIO = 3;
export const CACHE_RATIO = 0.1;

/** The usage every fake reply reports, so that every call costs the same. */
export const AGENT_USAGE: FakeBehavior = { promptTokens: 40, completionTokens: 7, cachedTokens: 3 };

export async function startAgentGateway(
  dialect: DialectName,
  upstream: FakeUpstream,
  channel: { type: number; key: string; models: string[] },
): Promise<RelayEnv> {
  const r = await startRelayEnv(dialect);
  const prices = Object.fromEntries(channel.models.map((m) => [m, RATIO]));
  await r.setPrices(prices, Object.fromEntries(channel.models.map((m) => [m, COMPLETION_RATIO])));
  await r.s.root.put("/api/option/", {
    key: "CacheRatio",
    value: JSON.stringify({
      ...r.s.ctx.options.json<object>("CacheRatio"),
      ...Object.fromEntries(channel.models.map((m) => [m, CACHE_RATIO])),
    }),
  });
  await r.addChannel({ type: channel.type, key: channel.key, models: channel.models.join(",") }, upstream);
  return r;
}

/** A sandbox, a fake upstream and a gateway with one channel on it, for the tests of a describe block. */
export function useAgentGateway(
  dialect: DialectName,
  start: (sandbox: CliSandbox) => FakeUpstream,
  channel: { type: number; key: string; models: string[] },
) {
  const context = {} as { r: RelayEnv; upstream: FakeUpstream; sandbox: CliSandbox };
  beforeAll(async () => {
    context.sandbox = makeSandbox();
    context.upstream = start(context.sandbox);
    context.r = await startAgentGateway(dialect, context.upstream, channel);
  });
  afterAll(async () => {
    await context.r.stop();
    await context.upstream.stop();
    context.sandbox.remove();
  });
  return context;
}

/**
 * Where a log row records the inbound dialect. The dialect framework was not merged when this was
 * written: rename to its field if it chose another name.
 */
const inboundDialectOf = (other: any) => other.inbound;

/**
 * One consume row per upstream call, each billed by the one formula from the usage the fake reported
 * (prompt tokens as the gateway counts them: cached and cache-written ones included), and the user's
 * quota down by exactly their sum.
 */
export async function expectExactBilling(
  r: RelayEnv,
  before: { quota: number; used_quota: number; request_count: number },
  calls: number,
  usage: { prompt: number; completion: number; cached: number; written?: number },
  inbound: string,
) {
  const quota = expectedQuota({
    ...usage,
    ratio: RATIO,
    completionRatio: COMPLETION_RATIO,
    cacheRatio: CACHE_RATIO,
  });
  const logs = await r.consumeLogs();
  expect(logs).toHaveLength(calls);
  for (const log of logs) {
    expect(log).toMatchObject({ quota, prompt_tokens: usage.prompt, completion_tokens: usage.completion });
  }
  const after = await r.userRow();
  expect(before.quota - after.quota).toBe(quota * calls);
  expect(after.used_quota - before.used_quota).toBe(quota * calls);
  expect(after.request_count - before.request_count).toBe(calls);
  for (const log of logs) expect(inboundDialectOf(JSON.parse(log.other))).toBe(inbound);
}
