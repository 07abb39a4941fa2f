import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { render } from "ink-testing-library";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createElement } from "react";
import { actingRoot } from "../../src/service/accounts/acting-root";
import type { AppProps } from "../../src/cli/tui/app";
import { languageOf } from "../../src/cli/tui/language";
import { compileMacrosOnLoad } from "../../src/cli/tui/macros";
import { insertLog } from "../../src/db/queries/logs";
import type { UserRow } from "../../src/db/schema";
import { bootstrapRoot } from "../../src/service/accounts/setup";
import { createChannels } from "../../src/service/channels/create";
import type { ChannelView } from "../../src/service/channels/view";
import { loadConfig } from "../../src/service/config";
import { openServiceContext, type ServiceContext } from "../../src/service/context";
import type { Probe } from "../../src/service/relay/channel-tests";
import { nowSeconds } from "../../src/service/time";
import { createUserAsAdmin } from "../../src/service/users/admin";
import { manageUser } from "../../src/service/users/admin-manage";
import { ChannelStatus } from "../../src/shared/channel-types";
import { LogType, Role } from "../../src/shared/constants";
import { channelRow } from "../support/channels";
import { logsOf, userRow } from "../support/rows";
import { cliDatabase, oneLineError } from "./support";

setDefaultTimeout(30_000);

const KEY = { tab: "\t", up: "\u001B[A", down: "\u001B[B", enter: "\r", backspace: "\u007F" };
const SIZE = { columns: 80, rows: 24 };
/** A channel test that answers at once, as a healthy upstream would in 120 ms. */
const probe: Probe = async () => ({ ok: true, ms: 120 });

await compileMacrosOnLoad();
const { App } = await import("../../src/cli/tui/app");
const { i18n } = await import("../../src/console/i18n");

let dir: string;
let ctx: ServiceContext;
let root: UserRow;
let admin: UserRow;
let alice: UserRow;
let channels: ChannelView[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tollgate-tui-"));
  ctx = await openServiceContext(
    loadConfig({ SQLITE_PATH: join(dir, "tollgate.db"), INITIAL_ROOT_PASSWORD: "root-pass-1234" }),
  );
  await bootstrapRoot(ctx);
  root = await actingRoot(ctx);
  const body = (name: string, priority: number) => ({
    type: 1,
    name,
    key: `sk-${name}`,
    models: "gpt-4o,gpt-4o-mini",
    group: "default",
    priority,
  });
  channels = [
    (await createChannels(ctx, root, body("alpha", 10))) as ChannelView,
    (await createChannels(ctx, root, body("beta", 5))) as ChannelView,
  ];
  const user = async (username: string) =>
    (await userRow(ctx, (await createUserAsAdmin(ctx, root, { username, password: "password-1234" })).id)) as UserRow;
  admin = await user("admin1");
  await manageUser(ctx, root, { id: admin.id, action: "promote" });
  admin = (await userRow(ctx, admin.id)) as UserRow;
  alice = await user("alice");
});

afterAll(async () => {
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
});

let screen: ReturnType<typeof render> | undefined;
afterEach(() => {
  screen?.unmount();
  screen = undefined;
  i18n.activate("en");
});

function open(props: Partial<AppProps> = {}, language: "en" | "zh" = "en") {
  i18n.activate(language);
  screen = render(createElement(App, { ctx, actor: root, probe, size: SIZE, ...props }));
  return screen;
}

const frame = () => screen?.lastFrame() ?? "";

/** Opens the TUI on the Channels screen, the first channel highlighted. */
async function openChannels(): Promise<void> {
  open();
  await press("2");
  await see(/> +\d+ alpha/);
}

/** Waits until the screen shows `text` (or passes `check`), failing with the last frame after 5 s. */
async function see(text: string | RegExp, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const found = () => (typeof text === "string" ? frame().includes(text) : text.test(frame()));
  while (!found()) {
    if (Date.now() > deadline) throw new Error(`expected ${text} on screen, got:\n${frame()}`);
    await Bun.sleep(20);
  }
  return frame();
}

/** Types keys one at a time, letting the screen react between them. */
async function press(...keys: string[]): Promise<void> {
  for (const key of keys) {
    screen!.stdin.write(key);
    await Bun.sleep(30);
  }
}

/** Waits until `read` answers `expected` (the services write asynchronously to the screen). */
async function until<T>(read: () => Promise<T>, expected: Awaited<T>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!Bun.deepEquals(await read(), expected)) {
    if (Date.now() > deadline) expect(await read()).toEqual(expected);
    await Bun.sleep(20);
  }
}

describe("tollgate tui: screens and keys", () => {
  test("1-4 and Tab switch between Overview, Channels, Users and Logs; every frame fits 80×24", async () => {
    open();
    await see("Requests / min");
    const steps: [key: string, tab: string, body: string][] = [
      ["2", "[2 Channels]", "alpha"],
      [KEY.tab, "[3 Users]", "alice"],
      ["4", "[4 Logs]", "live, every second"],
      [KEY.tab, "[1 Overview]", "Requests / min"],
    ];
    for (const [key, tab, body] of steps) {
      await press(key);
      await see(tab);
      await see(body);
    }
    for (const frameText of screen!.frames.slice(-5)) {
      const lines = frameText.split("\n");
      expect(lines.length).toBeLessThanOrEqual(24);
      for (const line of lines) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(80);
    }
  });

  test("the help bar lists the screen's keys", async () => {
    open();
    await press("2");
    expect(await see("t test")).toContain("d disable");
    await press("3");
    expect(await see("a add quota")).toContain("+ promote");
  });
});

describe("tollgate tui: channels", () => {
  const beta = () => channels[1]!;

  test("disable asks y/n first, then disables the channel in the database; e enables it again", async () => {
    await openChannels();
    await press(KEY.down, "d");
    await see("Disable channel beta? (y/n)");
    await press("n");
    await Bun.sleep(100);
    expect((await channelRow(ctx, beta().id))!.status).toBe(ChannelStatus.Enabled);
    await press("d", "y");
    await see("Channel beta disabled");
    await until(async () => (await channelRow(ctx, beta().id))!.status, ChannelStatus.ManuallyDisabled);
    await see(/> +\d+ beta +Disabled/);
    await press("e");
    await see("Channel beta enabled");
    await until(async () => (await channelRow(ctx, beta().id))!.status, ChannelStatus.Enabled);
  });

  test("p and w edit the priority and weight; a value the API refuses shows its reason", async () => {
    await openChannels();
    await press(KEY.down, "p", KEY.backspace, "7", KEY.enter);
    await see("Channel beta: Priority 7");
    await until(async () => (await channelRow(ctx, beta().id))!.priority, 7);
    // The prefilled 7 is selected: typing 0 then 9 replaces it (9, still under alpha's 10), it does not append (709).
    await press("p", "0", "9", KEY.enter);
    await see("Channel beta: Priority 09");
    await until(async () => (await channelRow(ctx, beta().id))!.priority, 9);
    await press("w", "x", KEY.enter);
    await see("weight must be a non-negative integer");
  });

  test("t tests the highlighted channel and records its response time", async () => {
    await openChannels();
    await press("t");
    await see("Channel alpha answered in 0.12 s");
    await until(async () => (await channelRow(ctx, channels[0]!.id))!.response_time, 120);
  });

  test("keys that arrive in one read (typed ahead over a slow link) each count; batched command letters do nothing", async () => {
    await openChannels();
    await press(KEY.down + KEY.down + KEY.up);
    await Bun.sleep(100);
    await see(/> +\d+ alpha/);
    await press(`${KEY.down}w`);
    await see(/> +\d+ beta/);
    await press(`${KEY.backspace}3${KEY.enter}`);
    await see("Channel beta: Weight 3");
    await until(async () => (await channelRow(ctx, beta().id))!.weight, 3);
    await press("dy");
    await Bun.sleep(200);
    expect(frame()).not.toContain("(y/n)");
    expect((await channelRow(ctx, beta().id))!.status).toBe(ChannelStatus.Enabled);
  });

  test("/ filters by name, model: and group:", async () => {
    await openChannels();
    await see("beta");
    await press("/", ..."alp", KEY.enter);
    await see("Filter: alp");
    expect(frame()).not.toContain("beta");
    await press("/", ...KEY.backspace.repeat(3), ..."model:nope", KEY.enter);
    await see("No channels match.");
    await press("/", ...KEY.backspace.repeat(10), ..."group:default", KEY.enter);
    await see("beta");
    await press("/", ..."zzz");
    await see("group:defaultzzz");
    await press("\u001B");
    await see(/Filter: group:default +Page/);
    expect(frame()).toContain("alpha");
  });
});

describe("tollgate tui: users follow the API's rules", () => {
  const onAlice = async (actor = root, language: "en" | "zh" = "en") => {
    open({ actor }, language);
    await press("3");
    await see("alice");
    await press("/", ..."alice", KEY.enter);
    await see(/> +\d+ alice/);
  };

  test("a adds money in the site's currency (logged like the API's add_quota); a leading - subtracts", async () => {
    const before = (await userRow(ctx, alice.id)).quota;
    await onAlice();
    await press("a");
    await see("Add to alice's balance ($, - subtracts):");
    await press("2");
    await see("= 1000000 units");
    await press(KEY.enter);
    await see("Quota of alice changed by $2.00");
    await until(async () => (await userRow(ctx, alice.id)).quota, before + 1_000_000);
    const logged = (await logsOf(ctx, alice.id)).filter((row) => row.type === LogType.Manage);
    expect(logged.at(-1)!.quota).toBe(1_000_000);
    await press("a", ..."-1", KEY.enter);
    await until(async () => (await userRow(ctx, alice.id)).quota, before + 500_000);
  });

  test("an admin cannot promote: the service's refusal is shown and nothing changes", async () => {
    await onAlice(admin);
    await press("+");
    await see("only the super administrator can promote users");
    expect((await userRow(ctx, alice.id)).role).toBe(Role.Common);
  });

  test("in Chinese, the service's refusal is shown in Chinese too (issue #22: one language)", async () => {
    await onAlice(admin, "zh");
    await press("+");
    await see("只有超级管理员才能提升用户");
  });

  test("root promotes; demote asks y/n first", async () => {
    await onAlice();
    await press("+");
    await see("alice is now an administrator");
    await until(async () => (await userRow(ctx, alice.id)).role, Role.Admin);
    await press("-");
    await see("Demote alice to an ordinary user? (y/n)");
    await press("y");
    await see("alice is now an ordinary user");
    await until(async () => (await userRow(ctx, alice.id)).role, Role.Common);
  });

  test("disable asks y/n first; e enables", async () => {
    await onAlice();
    await press("d", "y");
    await see("User alice disabled");
    await until(async () => (await userRow(ctx, alice.id)).status, 2);
    await press("e");
    await until(async () => (await userRow(ctx, alice.id)).status, 1);
  });
});

const logRow = (fields: { username: string; model: string; type?: number; quota?: number; content?: string }) =>
  insertLog(ctx.db, {
    user_id: alice.id,
    username: fields.username,
    created_at: nowSeconds(),
    type: fields.type ?? LogType.Consume,
    model_name: fields.model,
    quota: fields.quota ?? 500,
    prompt_tokens: 12,
    completion_tokens: 34,
    channel_id: channels[0]!.id,
    content: fields.content ?? "",
  });

describe("tollgate tui: logs and overview", () => {
  test("the log tail shows a new row within a second or two, and keeps to its filters", async () => {
    open();
    await press("4");
    await see("live, every second");
    await logRow({ username: "alice", model: "tail-model-1" });
    await see(/alice +tail-model-1 +alpha +12\+34/);
    await press("/", ..."model:tail-model-2", KEY.enter);
    await see("Filter: model:tail-model-2");
    await see("No log entries yet.");
    await logRow({ username: "alice", model: "tail-model-1" });
    await logRow({ username: "alice", model: "tail-model-2", type: LogType.Error, content: "upstream down" });
    await see("upstream down");
    expect(frame()).not.toContain("tail-model-1");
    await press("x");
    await see("errors only");
    await see("upstream down");
  });

  test("the overview counts requests, tokens, today's quota and the top models and users", async () => {
    await logRow({ username: "alice", model: "overview-model", quota: 1_000_000 });
    open();
    await see(/Requests \/ min +\d/);
    const shown = await see(/overview-model +\d+ +\$2\.00/);
    expect(shown).toMatch(/alice +\d+ +\$\d+\.\d\d/);
    expect(shown).toContain("Error rate (1 h)");
  });
});

describe("tollgate tui: language", () => {
  test("--lang wins; else en only for an English locale (LC_ALL, LC_MESSAGES, LANG in that order), zh otherwise", () => {
    expect(languageOf("en", { LANG: "zh_CN.UTF-8" })).toBe("en");
    expect(languageOf(undefined, { LANG: "en_US.UTF-8" })).toBe("en");
    expect(languageOf(undefined, { LC_ALL: "zh_CN.UTF-8", LANG: "en_US.UTF-8" })).toBe("zh");
    expect(languageOf(undefined, { LC_MESSAGES: "en_GB", LANG: "de_DE" })).toBe("en");
    for (const env of [{}, { LANG: "C.UTF-8" }, { LANG: "POSIX" }, { LANG: "de_DE.UTF-8" }])
      expect(languageOf(undefined, env)).toBe("zh");
  });

  test("zh renders the screens in Chinese", async () => {
    open({}, "zh");
    await see("概览");
    await press("2");
    const shown = await see("渠道");
    expect(shown).toContain("优先级");
    expect(shown).not.toContain("Priority");
  });
});

describe("tollgate tui: without a terminal", () => {
  test("refuses with one line on stderr and exit code 2", async () => {
    const db = await cliDatabase();
    try {
      const result = await db.run(["tui"]);
      expect(result.code).toBe(2);
      expect(oneLineError(result)).toBe("error: tollgate tui needs an interactive terminal");
      expect(result.stdout).toBe("");
    } finally {
      db.drop();
    }
  });
});
