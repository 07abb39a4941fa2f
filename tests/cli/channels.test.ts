import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeUpstream, type FakeUpstream } from "../support/fake-upstream";
import { allowSlowTests, cliDatabase, expectRefusal, oneLineError, runCli, type CliDatabase } from "./support";

allowSlowTests();

let db: CliDatabase;
let fake: FakeUpstream;
beforeAll(async () => {
  db = await cliDatabase();
  fake = startFakeUpstream({ apiKey: "sk-upstream" });
});
afterAll(async () => {
  db.drop();
  await fake.stop();
});

const refused = (args: string[], message: string, code = 1) => expectRefusal(db, args, message, code);

const add = (name: string, ...more: string[]) =>
  db.json([
    "channel",
    "add",
    "--type",
    "openai",
    "--name",
    name,
    "--key",
    "sk-upstream",
    "--base-url",
    fake.url,
    "--models",
    "gpt-4o,fake-error-401",
    "--groups",
    "default",
    ...more,
  ]);

describe("tollgate channel add / list / show", () => {
  test("add creates a channel from flags; the type may be a name; the key is not shown", async () => {
    const created = await add("main", "--priority", "5", "--test-model", "gpt-4o");
    expect(created).toMatchObject({
      id: 1,
      name: "main",
      type: 1,
      priority: 5,
      models: "gpt-4o,fake-error-401",
      group: "default",
    });
    expect(created.key).toBeUndefined();
    expect((await add("broken", "--test-model", "fake-error-401")).id).toBe(2);
  });

  test("add --batch makes one channel per key line from stdin", async () => {
    const result = await db.run(
      [
        "channel",
        "add",
        "--type",
        "14",
        "--name",
        "claude",
        "--key-stdin",
        "--models",
        "claude-3",
        "--groups",
        "default",
        "--batch",
      ],
      "k1\nk2\n",
    );
    expect(result.stdout).toBe("created channel claude #1 (id 3)\ncreated channel claude #2 (id 4)\n");
  });

  test("add refuses an unknown type, a type no provider serves, a missing field and a bad option value", async () => {
    await refused(
      ["channel", "add", "--type", "nope", "--name", "x", "--key", "k", "--models", "a", "--groups", "default"],
      'unknown channel type "nope": give its number or a name such as OpenAI or Anthropic',
    );
    await refused(
      ["channel", "add", "--type", "replicate", "--name", "x", "--key", "k", "--models", "a", "--groups", "default"],
      "channel type Replicate (56) has no provider in this gateway: choose another type",
    );
    await refused(
      ["channel", "add", "--type", "1", "--name", "x", "--key", "k", "--models", "a"],
      "groups are required",
    );
    expect((await db.run(["channel", "add", "--priority", "high"])).code).toBe(2);
  });

  test("add without --type is a usage error: exit 2 with the reason, nothing created", async () => {
    const before = (await db.json(["channel", "list"])).total;
    await refused(
      ["channel", "add", "--name", "x", "--key", "k", "--models", "a", "--groups", "default"],
      "--type is required: a number or a name (OpenAI, Anthropic, Gemini, ...)",
      2,
    );
    expect((await db.json(["channel", "list"])).total).toBe(before);
  });

  test("errors follow LANG: a Chinese locale reads the service's refusal in Chinese (issue #22)", async () => {
    const args = ["channel", "add", "--type", "1", "--name", "x", "--key", "k", "--models", "a"];
    const chinese = await runCli(args, { ...db.env, LANG: "zh_CN.UTF-8" }, db.dir);
    expect(chinese.code).toBe(1);
    expect(oneLineError(chinese)).toBe("error: 分组为必填项");
    expect(oneLineError(await runCli(args, { ...db.env, LANG: "C.UTF-8" }, db.dir))).toBe("error: groups are required");
  });

  test("list --json filters like the API; the table shows type names", async () => {
    const page = await db.json(["channel", "list", "--model", "claude-3"]);
    expect(page.items.map((c: { name: string }) => c.name).sort()).toEqual(["claude #1", "claude #2"]);
    expect((await db.run(["channel", "list"])).stdout).toMatch(/^ +1 +main +OpenAI +enabled +5 /m);
  });

  test("show finds a channel by name or id; --with-key adds the key; a shared name asks for the id", async () => {
    expect(await db.json(["channel", "show", "main"])).not.toHaveProperty("key");
    expect(await db.json(["channel", "show", "1", "--with-key"])).toMatchObject({ name: "main", key: "sk-upstream" });
    await refused(["channel", "show", "nothing"], "channel not found");
    await db.run(["channel", "edit", "claude #2", "--name", "claude #1"]);
    await refused(["channel", "show", "claude #1"], '2 channels are named "claude #1": use the id (4, 3)');
  });
});

describe("tollgate channel edit / enable / disable / delete", () => {
  test("edit changes only what is given", async () => {
    const edited = await db.json(["channel", "edit", "main", "--weight", "7", "--model-mapping", '{"gpt-4":"gpt-4o"}']);
    expect(edited).toMatchObject({ weight: 7, priority: 5, model_mapping: '{"gpt-4":"gpt-4o"}' });
    await refused(["channel", "edit", "main", "--model-mapping", "not json"], "model_mapping must be valid JSON");
  });

  test("disable and enable", async () => {
    expect((await db.run(["channel", "disable", "main"])).stdout).toBe("channel main (id 1): disabled\n");
    expect(await db.json(["channel", "enable", "1"])).toMatchObject({ status: 1 });
    await refused(["channel", "enable", "99"], "channel not found");
  });

  test("delete removes a channel; a second delete is refused", async () => {
    expect((await db.run(["channel", "delete", "4"])).stdout).toBe("deleted channel 4\n");
    await refused(["channel", "delete", "4"], "channel not found");
  });
});

describe("tollgate channel test / test-all / models", () => {
  test("test sends a request through the channel: ok, or exit 1 with the upstream's error", async () => {
    expect((await db.run(["channel", "test", "main"])).stdout).toMatch(/^channel main: ok in \d+\.\d\d s\n$/);
    const failed = await db.run(["channel", "test", "broken"]);
    expect(failed.code).toBe(1);
    expect(oneLineError(failed)).toStartWith("error: channel broken failed the test:");
    const json = await db.run(["channel", "test", "broken", "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ success: false });
  });

  test("test-all tests every channel not disabled by hand and applies the verdicts", async () => {
    await db.run(["option", "set", "AutomaticDisableChannelEnabled", "true"]);
    await db.run(["channel", "disable", "3"]);
    const result = await db.json(["channel", "test-all"]);
    expect(result.tested).toBe(2);
    const status = Object.fromEntries(result.channels.map((c: { name: string; status: number }) => [c.name, c.status]));
    expect(status).toEqual({ main: 1, broken: 3, "claude #1": 2 });
  });

  test("models lists known names; --by-type groups them", async () => {
    expect(await db.json(["channel", "models"])).toContain("fake-error-401");
    expect((await db.json(["channel", "models", "--by-type"]))["14"]).toContain("claude-3");
  });
});
