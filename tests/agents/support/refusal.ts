/** The refusal tests: an upstream error must reach the CLI's user, and cost nothing through the gateway. */
import { describe, expect, test } from "bun:test";
import type { DialectName } from "../../../src/db/connect";
import { DIALECTS } from "../../support/databases";
import type { FakeBehavior, FakeUpstream } from "../../support/fake-upstream";
import type { RelayEnv } from "../../relay/support";
import { useAgentGateway } from "./gateway";
import { CLI_TIMEOUT_MS, type CliRun, type CliSandbox } from "./run-cli";
import { useSandboxedUpstream } from "./sandboxed-upstream";

/** What the fake upstreams refuse with; the CLI must show the message to its user. */
export const REFUSAL: FakeBehavior = {
  status: 400,
  errorMessage: "The fake upstream refuses this request (FAKE-REFUSAL-17).",
};

export const TASK = "What does note.txt say?";

function expectRefusalShown(run: CliRun) {
  expect(run.exitCode).not.toBe(0);
  expect(run.stdout + run.stderr).toContain(REFUSAL.errorMessage!);
}

/** The CLI, pointed at a fake upstream that refuses in its own dialect, exits non-zero showing the message. */
export function describeDirectRefusal(
  title: string,
  start: (behavior: FakeBehavior) => FakeUpstream,
  run: (sandbox: CliSandbox, upstreamUrl: string) => Promise<CliRun>,
) {
  describe.concurrent(`${title} when the upstream refuses`, () => {
    const ctx = useSandboxedUpstream(() => start(REFUSAL));
    test(
      "exits non-zero and shows the message of the upstream's error body",
      async () => expectRefusalShown(await run(ctx.sandbox, ctx.upstream.url)),
      CLI_TIMEOUT_MS + 10_000,
    );
  });
}

/** Through the gateway, on every database: the refusal reaches the CLI in its dialect, and nothing is billed. */
export function describeGatewayRefusal(
  title: string,
  start: (behavior: FakeBehavior) => FakeUpstream,
  channel: { type: number; key: string; models: string[] },
  run: (sandbox: CliSandbox, r: RelayEnv) => Promise<CliRun>,
) {
  describe.each(DIALECTS)(`${title} through the gateway on %s when the upstream refuses`, (dialect: DialectName) => {
    const ctx = useAgentGateway(dialect, () => start(REFUSAL), channel);
    test(
      "exits non-zero showing the upstream's message, and nothing is billed",
      async () => {
        const { r, sandbox } = ctx;
        const before = await r.userRow();
        expectRefusalShown(await run(sandbox, r));
        expect(await r.consumeLogs()).toHaveLength(0);
        const after = await r.userRow();
        expect({ quota: after.quota, used_quota: after.used_quota }).toEqual({
          quota: before.quota,
          used_quota: before.used_quota,
        });
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });
}
