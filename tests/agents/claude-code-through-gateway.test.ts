import { describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startFakeAnthropic } from "../support/fake-anthropic";
import { startFakeUpstream } from "../support/fake-upstream";
import { CLAUDE_MODEL, CLAUDE_SMALL_MODEL, runClaudeCode } from "./support/claude-code";
import { AGENT_USAGE, expectExactBilling, useAgentGateway } from "./support/gateway";
import { describeGatewayRefusal, TASK } from "./support/refusal";
import { CLI_TIMEOUT_MS, expectFinished, FINAL_TEXT } from "./support/run-cli";
import { anthropicToolResults, chatToolMessages, expectToolRoundTrip } from "./support/tool-results";

const UPSTREAM_KEY = "sk-upstream-for-claude-code";

/** Claude Code's channel families: the upstream, where its model calls land, and how a tool result looks there. */
const FAMILIES = [
  {
    name: "an OpenAI chat channel",
    type: 1,
    start: (note: string) => startFakeUpstream({ apiKey: UPSTREAM_KEY, behavior: behavior(note) }),
    path: "/v1/chat/completions",
    toolResult: (body: any) => chatToolMessages(body)[0]?.content,
    // OpenAI's prompt_tokens already include the cached ones.
    prompt: AGENT_USAGE.promptTokens!,
    written: 0,
    auth: "bearer" as const,
  },
  {
    name: "an Anthropic channel",
    type: 14,
    start: (note: string) =>
      startFakeAnthropic({ apiKey: UPSTREAM_KEY, behavior: { ...behavior(note), cacheWriteTokens: 2 } }),
    path: "/v1/messages",
    toolResult: (body: any) => anthropicToolResults(body)[0]?.content,
    // Anthropic's input_tokens leave out cache reads and writes; the gateway counts them in.
    prompt: AGENT_USAGE.promptTokens! + AGENT_USAGE.cachedTokens! + 2,
    written: 2,
    auth: "x-api-key" as const,
  },
];

function behavior(notePath: string) {
  return { ...AGENT_USAGE, content: FINAL_TEXT, toolCall: { name: "Read", arguments: { file_path: notePath } } };
}

describe.each(DIALECTS)("Claude Code through the gateway on %s", (dialect) => {
  describe.each(FAMILIES)("on $name", (family) => {
    const ctx = useAgentGateway(dialect, (sandbox) => family.start(sandbox.notePath), {
      type: family.type,
      key: UPSTREAM_KEY,
      models: [CLAUDE_MODEL, CLAUDE_SMALL_MODEL],
    });

    test(
      `claude -p finishes a Read tool round trip with its key as ${family.auth}, billed exactly`,
      async () => {
        const { r, upstream, sandbox } = ctx;
        const before = await r.userRow();
        const run = await runClaudeCode(sandbox, r.s.url, r.key, TASK, family.auth);
        expectFinished(run);
        expect(run.stdout).toContain(FINAL_TEXT);

        const calls = upstream.requests.filter((q) => q.path === family.path);
        expectToolRoundTrip(calls, "Read", family.toolResult);

        await expectExactBilling(
          r,
          before,
          calls.length,
          {
            prompt: family.prompt,
            completion: AGENT_USAGE.completionTokens!,
            cached: AGENT_USAGE.cachedTokens!,
            written: family.written,
          },
          "anthropic",
        );
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });
});

// The refusal comes from an OpenAI chat upstream, so the gateway translates the error body too.
describeGatewayRefusal(
  "Claude Code",
  (behavior) => startFakeUpstream({ apiKey: UPSTREAM_KEY, behavior }),
  { type: 1, key: UPSTREAM_KEY, models: [CLAUDE_MODEL, CLAUDE_SMALL_MODEL] },
  (sandbox, r) => runClaudeCode(sandbox, r.s.url, r.key, TASK),
);
