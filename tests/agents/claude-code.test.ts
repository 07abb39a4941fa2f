import { describe, expect, test } from "bun:test";
import { startFakeAnthropic } from "../support/fake-anthropic";
import { runClaudeCode } from "./support/claude-code";
import { CLI_TIMEOUT_MS, expectFinished, FINAL_TEXT, NOTE_MARKER } from "./support/run-cli";
import { describeDirectRefusal, TASK } from "./support/refusal";
import { useSandboxedUpstream } from "./support/sandboxed-upstream";
import { anthropicToolResults, offeredTools } from "./support/tool-results";

const KEY = "sk-ant-fake-direct";

describe.concurrent("Claude Code against a fake Anthropic upstream", () => {
  const ctx = useSandboxedUpstream((sandbox) =>
    startFakeAnthropic({
      apiKey: KEY,
      behavior: {
        content: FINAL_TEXT,
        toolCall: { name: "Read", arguments: { file_path: sandbox.notePath } },
        cachedTokens: 3,
        cacheWriteTokens: 2,
      },
    }),
  );

  test(
    "claude -p finishes a task that reads a file through its Read tool",
    async () => {
      const { upstream, sandbox } = ctx;
      const run = await runClaudeCode(sandbox, upstream.url, KEY, TASK);
      expectFinished(run);
      expect(run.stdout).toContain(FINAL_TEXT);

      const calls = upstream.requests.filter((r) => r.path === "/v1/messages");
      expect(calls).toHaveLength(2);
      expect(offeredTools(calls[0]!.body)).toContain("Read");
      expect(calls[0]!.headers["x-api-key"]).toBe(KEY);
      const [result] = anthropicToolResults(calls[1]!.body);
      expect(result.tool_use_id).toBe(`toolu_fake_${upstream.requests.indexOf(calls[0]!) + 1}`);
      expect(JSON.stringify(result.content)).toContain(NOTE_MARKER);
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});

describeDirectRefusal(
  "claude -p",
  (behavior) => startFakeAnthropic({ apiKey: KEY, behavior }),
  (sandbox, url) => runClaudeCode(sandbox, url, KEY, TASK),
);
