import { describe, expect, test } from "bun:test";
import { startFakeUpstream } from "../support/fake-upstream";
import { runCodex } from "./support/codex";
import { CLI_TIMEOUT_MS, expectFinished, FINAL_TEXT, NOTE_FILE, NOTE_MARKER } from "./support/run-cli";
import { describeDirectRefusal, TASK } from "./support/refusal";
import { useSandboxedUpstream } from "./support/sandboxed-upstream";
import { offeredTools, responsesCallOutputs } from "./support/tool-results";

const KEY = "sk-fake-codex-direct";

describe.concurrent("Codex CLI against a fake OpenAI Responses upstream", () => {
  const ctx = useSandboxedUpstream(() =>
    startFakeUpstream({
      apiKey: KEY,
      behavior: {
        content: FINAL_TEXT,
        toolCall: { name: "exec_command", arguments: { cmd: `cat ${NOTE_FILE}` } },
        cachedTokens: 3,
        reasoningTokens: 2,
      },
    }),
  );

  test(
    "codex exec finishes a task that runs a shell command through exec_command",
    async () => {
      const { upstream, sandbox } = ctx;
      const run = await runCodex(sandbox, `${upstream.url}/v1`, KEY, TASK);
      expectFinished(run);
      expect(run.stdout).toContain(FINAL_TEXT);

      const calls = upstream.requests.filter((r) => r.path === "/v1/responses");
      expect(calls).toHaveLength(2);
      expect(offeredTools(calls[0]!.body)).toContain("exec_command");
      expect(calls[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(calls[0]!.body.stream).toBe(true);
      const [output] = responsesCallOutputs(calls[1]!.body);
      expect(output.call_id).toBe(`call_fake_${upstream.requests.indexOf(calls[0]!) + 1}`);
      expect(JSON.stringify(output.output)).toContain(NOTE_MARKER);
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});

describeDirectRefusal(
  "codex exec",
  (behavior) => startFakeUpstream({ apiKey: KEY, behavior }),
  (sandbox, url) => runCodex(sandbox, `${url}/v1`, KEY, TASK),
);
