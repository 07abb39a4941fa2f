import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeAnthropic } from "../support/fake-anthropic";
import type { FakeUpstream } from "../support/fake-upstream";
import { runClaudeCode } from "./support/claude-code";
import { CLI_TIMEOUT_MS, type CliSandbox, FINAL_TEXT, makeSandbox, NOTE_MARKER } from "./support/run-cli";

const KEY = "sk-ant-fake-direct";

/** The tool_result blocks of a Messages request. */
const toolResults = (body: any): any[] =>
  (body?.messages ?? []).flatMap((m: any) =>
    Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_result") : [],
  );

describe.concurrent("Claude Code against a fake Anthropic upstream", () => {
  let upstream: FakeUpstream;
  let sandbox: CliSandbox;
  beforeAll(() => {
    sandbox = makeSandbox();
    upstream = startFakeAnthropic({
      apiKey: KEY,
      behavior: {
        content: FINAL_TEXT,
        toolCall: { name: "Read", arguments: { file_path: sandbox.notePath } },
        cachedTokens: 3,
        cacheWriteTokens: 2,
      },
    });
  });
  afterAll(async () => {
    await upstream.stop();
    sandbox.remove();
  });

  test(
    "claude -p finishes a task that reads a file through its Read tool",
    async () => {
      const run = await runClaudeCode(sandbox, upstream.url, KEY, "What does note.txt say?");
      expect({ exitCode: run.exitCode, stderr: run.exitCode ? run.stderr : "" }).toEqual({ exitCode: 0, stderr: "" });
      expect(run.stdout).toContain(FINAL_TEXT);

      const messages = upstream.requests.filter((r) => r.path === "/v1/messages");
      const asked = messages.findIndex((r) => r.body.tools?.some((t: any) => t.name === "Read"));
      expect(asked).toBeGreaterThanOrEqual(0);
      expect(messages[asked]!.headers["x-api-key"]).toBe(KEY);
      const answered = messages.slice(asked + 1).find((r) => toolResults(r.body).length > 0);
      const [result] = toolResults(answered?.body);
      expect(result.tool_use_id).toBe(`toolu_fake_${upstream.requests.indexOf(messages[asked]!) + 1}`);
      expect(JSON.stringify(result.content)).toContain(NOTE_MARKER);
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});
