import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream";
import { runCodex } from "./support/codex";
import { CLI_TIMEOUT_MS, type CliSandbox, FINAL_TEXT, makeSandbox, NOTE_FILE, NOTE_MARKER } from "./support/run-cli";

const KEY = "sk-fake-codex-direct";

/** The function_call_output items of a Responses request. */
const callOutputs = (body: any): any[] =>
  Array.isArray(body?.input) ? body.input.filter((item: any) => item.type === "function_call_output") : [];

describe.concurrent("Codex CLI against a fake OpenAI Responses upstream", () => {
  let upstream: FakeUpstream;
  let sandbox: CliSandbox;
  beforeAll(() => {
    sandbox = makeSandbox();
    upstream = startFakeUpstream({
      apiKey: KEY,
      behavior: {
        content: FINAL_TEXT,
        toolCall: { name: "exec_command", arguments: { cmd: `cat ${NOTE_FILE}` } },
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
    "codex exec finishes a task that runs a shell command through exec_command",
    async () => {
      const run = await runCodex(sandbox, `${upstream.url}/v1`, KEY, "What does note.txt say?");
      expect({ exitCode: run.exitCode, stderr: run.exitCode ? run.stderr : "" }).toEqual({ exitCode: 0, stderr: "" });
      expect(run.stdout).toContain(FINAL_TEXT);

      const calls = upstream.requests.filter((r) => r.path === "/v1/responses");
      const asked = calls.findIndex((r) => r.body.tools?.some((t: any) => t.name === "exec_command"));
      expect(asked).toBeGreaterThanOrEqual(0);
      expect(calls[asked]!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(calls[asked]!.body.stream).toBe(true);
      const answered = calls.slice(asked + 1).find((r) => callOutputs(r.body).length > 0);
      const [output] = callOutputs(answered?.body);
      expect(output.call_id).toBe(`call_fake_${upstream.requests.indexOf(calls[asked]!) + 1}`);
      expect(JSON.stringify(output.output)).toContain(NOTE_MARKER);
    },
    CLI_TIMEOUT_MS + 10_000,
  );
});
