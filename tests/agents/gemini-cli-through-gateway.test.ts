import { describe, expect, test } from "bun:test";
import { DIALECTS } from "../support/databases";
import { startFakeGemini } from "../support/fake-gemini";
import { type FakeBehavior, startFakeUpstream } from "../support/fake-upstream";
import { AGENT_USAGE, expectExactBilling, useAgentGateway } from "./support/gateway";
import { GEMINI_MODEL, runGeminiCli } from "./support/gemini-cli";
import { describeGatewayRefusal, TASK } from "./support/refusal";
import { CLI_TIMEOUT_MS, expectFinished, FINAL_TEXT, NOTE_FILE } from "./support/run-cli";
import { chatToolMessages, expectToolRoundTrip, geminiFunctionResponses } from "./support/tool-results";

const UPSTREAM_KEY = "upstream-key-for-gemini-cli";
const BEHAVIOR: FakeBehavior = {
  ...AGENT_USAGE,
  content: FINAL_TEXT,
  toolCall: { name: "read_file", arguments: { file_path: NOTE_FILE } },
};

/** Gemini CLI's channel families; both count cached tokens inside the prompt tokens. */
const FAMILIES = [
  {
    name: "a Gemini channel",
    type: 24,
    start: () => startFakeGemini({ apiKey: UPSTREAM_KEY, behavior: BEHAVIOR }),
    isModelCall: (path: string) => path.startsWith(`/v1beta/models/${GEMINI_MODEL}:`),
    toolResult: (body: any) => geminiFunctionResponses(body)[0]?.functionResponse,
  },
  {
    name: "an OpenAI chat channel",
    type: 1,
    start: () => startFakeUpstream({ apiKey: UPSTREAM_KEY, behavior: BEHAVIOR }),
    isModelCall: (path: string) => path === "/v1/chat/completions",
    toolResult: (body: any) => chatToolMessages(body)[0]?.content,
  },
];

describe.each(DIALECTS)("Gemini CLI through the gateway on %s", (dialect) => {
  describe.each(FAMILIES)("on $name", (family) => {
    const ctx = useAgentGateway(dialect, family.start, {
      type: family.type,
      key: UPSTREAM_KEY,
      models: [GEMINI_MODEL],
    });

    test(
      "gemini -p finishes a read_file round trip, billed exactly",
      async () => {
        const { r, upstream, sandbox } = ctx;
        const before = await r.userRow();
        const run = await runGeminiCli(sandbox, r.s.url, r.key, TASK);
        expectFinished(run);
        expect(run.stdout).toContain(FINAL_TEXT);

        const calls = upstream.requests.filter((q) => family.isModelCall(q.path));
        expectToolRoundTrip(calls, "read_file", family.toolResult);

        await expectExactBilling(
          r,
          before,
          calls.length,
          {
            prompt: AGENT_USAGE.promptTokens!,
            completion: AGENT_USAGE.completionTokens!,
            cached: AGENT_USAGE.cachedTokens!,
          },
          "gemini",
        );
      },
      CLI_TIMEOUT_MS + 10_000,
    );
  });
});

// The refusal comes from an OpenAI chat upstream, so the gateway translates the error body too.
describeGatewayRefusal(
  "Gemini CLI",
  (behavior) => startFakeUpstream({ apiKey: UPSTREAM_KEY, behavior }),
  { type: 1, key: UPSTREAM_KEY, models: [GEMINI_MODEL] },
  (sandbox, r) => runGeminiCli(sandbox, r.s.url, r.key, TASK),
);
