import { describe, expect, test } from "bun:test";
import { startFakeGemini } from "../support/fake-gemini";
import { runGeminiCli } from "./support/gemini-cli";
import { CLI_TIMEOUT_MS, expectFinished, FINAL_TEXT, NOTE_FILE, NOTE_MARKER } from "./support/run-cli";
import { describeDirectRefusal, TASK } from "./support/refusal";
import { useSandboxedUpstream } from "./support/sandboxed-upstream";
import { geminiFunctionResponses, offeredTools } from "./support/tool-results";

const KEY = "fake-gemini-direct-key";

describe.concurrent("Gemini CLI against a fake Gemini upstream", () => {
  const ctx = useSandboxedUpstream(() =>
    startFakeGemini({
      apiKey: KEY,
      behavior: {
        content: FINAL_TEXT,
        toolCall: { name: "read_file", arguments: { file_path: NOTE_FILE } },
        cachedTokens: 3,
        reasoningTokens: 2,
      },
    }),
  );

  test(
    "gemini -p finishes a task that reads a file through its read_file tool",
    async () => {
      const { upstream, sandbox } = ctx;
      const run = await runGeminiCli(sandbox, upstream.url, KEY, TASK);
      expectFinished(run);
      expect(run.stdout).toContain(FINAL_TEXT);

      const calls = upstream.requests.filter((r) => r.path.endsWith(":streamGenerateContent"));
      expect(calls).toHaveLength(2);
      expect(offeredTools(calls[0]!.body)).toContain("read_file");
      expect(calls[0]!.headers["x-goog-api-key"]).toBe(KEY);
      const [part] = geminiFunctionResponses(calls[1]!.body);
      expect(part.functionResponse.name).toBe("read_file");
      expect(JSON.stringify(part.functionResponse.response)).toContain(NOTE_MARKER);
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});

describeDirectRefusal(
  "gemini -p",
  (behavior) => startFakeGemini({ apiKey: KEY, behavior }),
  (sandbox, url) => runGeminiCli(sandbox, url, KEY, TASK),
);
