/**
 * Prompts counted on the counting thread (src/service/billing/counting-thread.ts): the count the server's thread
 * would make, with no encoding loaded on the server's thread; a thread that cannot start or fails hands its
 * counts back to the server's thread, with the same result.
 */
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { spawnSync } from "bun";
import { join } from "node:path";
import { CountingThread } from "../../src/service/billing/counting-thread";
import { encodingNamed } from "../../src/service/billing/encodings";
import { countNow, SLICED_BUDGET_CHARS, SYNC_BUDGET_CHARS } from "../../src/service/billing/token-count";

const ROOT = join(import.meta.dir, "../..");
const TEXTS = ["the quick brown fox jumps over the lazy dog ".repeat(900), "日本語のテキストも数える。".repeat(300)];
const onServerThread = (texts: string[]) => countNow(encodingNamed("o200k_base"), texts, SLICED_BUDGET_CHARS);
/** A count the caller cannot await is made within the budget of a count on the caller's turn. */
const nowOnServerThread = (texts: string[]) => countNow(encodingNamed("o200k_base"), texts, SYNC_BUDGET_CHARS);

let errors: ReturnType<typeof spyOn>;
afterEach(() => errors?.mockRestore());

describe("a prompt counted on the counting thread", () => {
  test("gives the server thread's count, and the server's thread loads no encoding", () => {
    // A fresh process: encodings other tests loaded on this thread do not count.
    const script = `
      const { countPartsOffThread } = await import(${JSON.stringify(join(ROOT, "src/service/billing/estimate.ts"))});
      const { loadedEncodings } = await import(${JSON.stringify(join(ROOT, "src/service/billing/encodings.ts"))});
      const tokens = await countPartsOffThread("gpt-4o", { texts: ${JSON.stringify(TEXTS)}, fixed: 7 });
      console.log(JSON.stringify({ tokens, loaded: loadedEncodings() }));`;
    const run = spawnSync({ cmd: ["bun", "-e", script], cwd: ROOT, stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({ tokens: 7 + onServerThread(TEXTS), loaded: [] });
  });

  test("several counts at once: each answer reaches its own caller", async () => {
    const thread = new CountingThread();
    const asked = [TEXTS, [TEXTS[0]!.slice(0, 100)], [], [TEXTS[1]!]];
    const counts = await Promise.all(asked.map((texts) => thread.count("o200k_base", texts)));
    expect(counts).toEqual(asked.map(onServerThread));
  });

  test("a huge prompt does not hold back a small one sent after it (the counts take turns)", async () => {
    const thread = new CountingThread();
    await thread.count("o200k_base", []);
    const order: string[] = [];
    const huge = thread.count("o200k_base", [TEXTS[0]!.repeat(60)]).then(() => order.push("huge"));
    const small = thread.count("o200k_base", ["a few words"]).then(() => order.push("small"));
    await Promise.all([huge, small]);
    expect(order).toEqual(["small", "huge"]);
  });

  test("a thread that cannot start: the count is made on the server's thread, and said once", async () => {
    errors = spyOn(console, "error").mockImplementation(() => {});
    const thread = new CountingThread(new URL("file:///nowhere/token-worker.ts"));
    expect(await thread.count("o200k_base", TEXTS)).toBe(onServerThread(TEXTS));
    expect(await thread.count("o200k_base", [TEXTS[1]!])).toBe(onServerThread([TEXTS[1]!]));
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toContain("[tokens] the counting thread failed");
  });

  test("a thread that fails while counting hands the counts it held back to the server's thread", async () => {
    errors = spyOn(console, "error").mockImplementation(() => {});
    const failing = URL.createObjectURL(new Blob(["self.onmessage = () => { throw new Error('boom'); };"]));
    const thread = new CountingThread(new URL(failing));
    const counts = await Promise.all([thread.count("o200k_base", TEXTS), thread.count("cl100k_base", TEXTS)]);
    expect(counts).toEqual([onServerThread(TEXTS), countNow(encodingNamed("cl100k_base"), TEXTS, SLICED_BUDGET_CHARS)]);
    expect(errors).toHaveBeenCalled();
  });
});

describe("a count the server's thread waits for (a reply without usage, billed as it ends)", () => {
  test("gives the server thread's count, and the server's thread loads no encoding", () => {
    const script = `
      const { countParts, countTextTokens } = await import(${JSON.stringify(join(ROOT, "src/service/billing/estimate.ts"))});
      const { loadedEncodings } = await import(${JSON.stringify(join(ROOT, "src/service/billing/encodings.ts"))});
      const prompt = countParts("gpt-4o", { texts: ${JSON.stringify(TEXTS)}, fixed: 7 });
      const text = countTextTokens("gpt-4o", ${JSON.stringify(TEXTS[1])});
      console.log(JSON.stringify({ prompt, text, loaded: loadedEncodings() }));`;
    const run = spawnSync({ cmd: ["bun", "-e", script], cwd: ROOT, stderr: "pipe" });
    expect(run.stderr.toString()).toBe("");
    expect(JSON.parse(run.stdout.toString())).toEqual({
      prompt: 7 + nowOnServerThread(TEXTS),
      text: nowOnServerThread([TEXTS[1]!]),
      loaded: [],
    });
  });

  test("while the thread counts a huge prompt in slices, a waited-for count is answered between its slices", async () => {
    const thread = new CountingThread();
    await thread.count("o200k_base", []);
    let hugeDone = false;
    const huge = thread.count("o200k_base", [TEXTS[0]!.repeat(60)]).then(() => (hugeDone = true));
    expect(thread.countWaiting("o200k_base", [TEXTS[1]!])).toBe(nowOnServerThread([TEXTS[1]!]));
    expect(hugeDone).toBe(false);
    await huge;
  });

  test("a thread that never answers: the count is made on the server's thread after the wait, and said", () => {
    errors = spyOn(console, "error").mockImplementation(() => {});
    const silent = URL.createObjectURL(new Blob(["self.onmessage = () => {};"]));
    const thread = new CountingThread(new URL(silent), 200);
    const started = performance.now();
    expect(thread.countWaiting("o200k_base", TEXTS)).toBe(nowOnServerThread(TEXTS));
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(String(errors.mock.calls[0]![0])).toContain("no answer within 200 ms");
    // Given up on: the next count does not wait again.
    const again = performance.now();
    expect(thread.countWaiting("o200k_base", [TEXTS[1]!])).toBe(nowOnServerThread([TEXTS[1]!]));
    expect(performance.now() - again).toBeLessThan(190);
  });

  test("a thread that cannot start: the count is made on the server's thread", () => {
    errors = spyOn(console, "error").mockImplementation(() => {});
    const thread = new CountingThread(new URL("file:///nowhere/token-worker.ts"), 200);
    expect(thread.countWaiting("o200k_base", TEXTS)).toBe(nowOnServerThread(TEXTS));
  });
});
