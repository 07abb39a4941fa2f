import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeGemini } from "../support/fake-gemini";
import type { FakeUpstream } from "../support/fake-upstream";
import { runGeminiCli } from "./support/gemini-cli";
import { CLI_TIMEOUT_MS, type CliSandbox, FINAL_TEXT, makeSandbox, NOTE_FILE, NOTE_MARKER } from "./support/run-cli";

const KEY = "fake-gemini-direct-key";

/** The functionResponse parts of a generateContent request. */
const functionResponses = (body: any): any[] =>
  (body?.contents ?? []).flatMap((c: any) => (c.parts ?? []).filter((p: any) => p.functionResponse));

describe.concurrent("Gemini CLI against a fake Gemini upstream", () => {
  let upstream: FakeUpstream;
  let sandbox: CliSandbox;
  beforeAll(() => {
    sandbox = makeSandbox();
    upstream = startFakeGemini({
      apiKey: KEY,
      behavior: {
        content: FINAL_TEXT,
        toolCall: { name: "read_file", arguments: { file_path: NOTE_FILE } },
        cachedTokens: 3,
        reasoningTokens: 2,
      },
    });
  });
  afterAll(async () => {
    await upstream.stop();
    sandbox.remove();
  });

  test(
    "gemini -p finishes a task that reads a file through its read_file tool",
    async () => {
      const run = await runGeminiCli(sandbox, upstream.url, KEY, "What does note.txt say?");
      expect({ exitCode: run.exitCode, stderr: run.exitCode ? run.stderr : "" }).toEqual({ exitCode: 0, stderr: "" });
      expect(run.stdout).toContain(FINAL_TEXT);

      const calls = upstream.requests.filter((r) => r.path.endsWith(":streamGenerateContent"));
      const offers = (r: (typeof calls)[number]) =>
        r.body.tools?.some((t: any) => t.functionDeclarations?.some((f: any) => f.name === "read_file"));
      const asked = calls.findIndex(offers);
      expect(asked).toBeGreaterThanOrEqual(0);
      expect(calls[asked]!.headers["x-goog-api-key"]).toBe(KEY);
      const answered = calls.slice(asked + 1).find((r) => functionResponses(r.body).length > 0);
      const [part] = functionResponses(answered?.body);
      expect(part.functionResponse.name).toBe("read_file");
      expect(JSON.stringify(part.functionResponse.response)).toContain(NOTE_MARKER);
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});
