import { describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startFakeUpstream } from "../support/fake-upstream";
import { CODEX_MODEL, runCodex } from "./support/codex";
import { AGENT_USAGE, expectExactBilling, useAgentGateway } from "./support/gateway";
import { describeGatewayRefusal, TASK } from "./support/refusal";
import { CLI_TIMEOUT_MS, expectFinished, FINAL_TEXT, NOTE_FILE } from "./support/run-cli";
import { chatToolMessages, expectToolRoundTrip, offeredTools } from "./support/tool-results";

const UPSTREAM_KEY = "sk-upstream-for-codex";

describe.each(DIALECTS)("Codex CLI through the gateway on %s", (dialect) => {
  // An upstream that only serves chat completions: the gateway must translate Codex's Responses calls.
  const ctx = useAgentGateway(
    dialect,
    () =>
      startFakeUpstream({
        apiKey: UPSTREAM_KEY,
        missingRoutes: ["POST /v1/responses"],
        behavior: {
          ...AGENT_USAGE,
          content: FINAL_TEXT,
          toolCall: { name: "exec_command", arguments: { cmd: `cat ${NOTE_FILE}` } },
        },
      }),
    { type: 1, key: UPSTREAM_KEY, models: [CODEX_MODEL] },
  );

  test(
    "codex exec (wire_api responses) finishes an exec_command round trip on a chat-only upstream, billed exactly",
    async () => {
      const { r, upstream, sandbox } = ctx;
      const before = await r.userRow();
      const run = await runCodex(sandbox, `${r.s.url}/v1`, r.key, TASK);
      expectFinished(run);
      expect(run.stdout).toContain(FINAL_TEXT);

      const chats = upstream.requests.filter((q) => q.path === "/v1/chat/completions");
      expectToolRoundTrip(chats, "exec_command", chatToolMessages);
      // Codex offers web_search on every call; a chat upstream cannot run it, so it is left out.
      expect(offeredTools(chats[0]!.body)).not.toContain("web_search");

      await expectExactBilling(
        r,
        before,
        chats.length,
        {
          prompt: AGENT_USAGE.promptTokens!,
          completion: AGENT_USAGE.completionTokens!,
          cached: AGENT_USAGE.cachedTokens!,
        },
        "responses",
      );
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});

// The refusal comes from an OpenAI chat upstream, so the gateway translates the error body too.
describeGatewayRefusal(
  "Codex CLI",
  (behavior) => startFakeUpstream({ apiKey: UPSTREAM_KEY, missingRoutes: ["POST /v1/responses"], behavior }),
  { type: 1, key: UPSTREAM_KEY, models: [CODEX_MODEL] },
  (sandbox, r) => runCodex(sandbox, `${r.s.url}/v1`, r.key, TASK),
);
