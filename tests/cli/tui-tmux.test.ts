import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { actingRoot } from "../../src/service/accounts/acting-root";
import { createChannels } from "../../src/service/channels/create";
import { loadConfig } from "../../src/service/config";
import { openServiceContext } from "../../src/service/context";
import { ChannelStatus } from "../../src/shared/channel-types";
import { cliDatabase, ROOT_DIR, type CliDatabase } from "./support";

/** A tmux server of our own, so the test neither sees nor touches anyone else's sessions. */
const SOCKET = `tollgate-tui-test-${process.pid}`;
const SESSION = "tui";

const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", SOCKET, ...args], { stdout: "pipe", stderr: "pipe" });
const capture = (): string => tmux("capture-pane", "-p", "-t", SESSION).stdout.toString();
const sessionAlive = (): boolean => tmux("has-session", "-t", SESSION).exitCode === 0;
const sendKeys = (...keys: string[]) => tmux("send-keys", "-t", SESSION, ...keys);

/** Polls until `check` holds, failing with `describe()` after the timeout. */
async function eventually(check: () => boolean, what: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`);
    await Bun.sleep(100);
  }
}

const seeOnScreen = (text: string | RegExp) =>
  eventually(
    () => (typeof text === "string" ? capture().includes(text) : text.test(capture())),
    () => `${text} on screen; the pane shows:\n${capture()}`,
  );

describe("tollgate tui in a real terminal (tmux, 80×24)", () => {
  let db: CliDatabase;
  let channelId: number;
  const statusOf = (id: number): number => {
    const sqlite = new Database(db.env.SQLITE_PATH!, { readonly: true });
    try {
      return (sqlite.query("SELECT status FROM channels WHERE id = ?").get(id) as { status: number }).status;
    } finally {
      sqlite.close();
    }
  };

  beforeAll(async () => {
    db = await cliDatabase();
    const ctx = await openServiceContext(loadConfig(db.env));
    const root = await actingRoot(ctx);
    const body = (name: string, priority: number) => ({
      type: 1,
      name,
      key: `sk-${name}`,
      models: "gpt-4o",
      group: "default",
      priority,
    });
    await createChannels(ctx, root, body("tmux-first", 10));
    channelId = ((await createChannels(ctx, root, body("tmux-second", 5))) as { id: number }).id;
    await ctx.close();
  });

  afterAll(() => {
    tmux("kill-server");
    db?.drop();
  });

  test("navigate to Channels, disable a channel with d and y, then quit with q", async () => {
    const rc = join(db.dir, "tui.rc");
    const command = `cd ${ROOT_DIR} && env -u INITIAL_ROOT_PASSWORD SQLITE_PATH='${db.env.SQLITE_PATH}' bun src/main.ts tui --lang en; echo $? > '${rc}'`;
    const started = tmux("new-session", "-d", "-s", SESSION, "-x", "80", "-y", "24", command);
    expect(started.exitCode).toBe(0);

    await seeOnScreen("Requests / min");
    sendKeys("2");
    await seeOnScreen("[2 Channels]");
    await seeOnScreen(/>\s+\d+ tmux-first/);
    sendKeys("Down");
    await seeOnScreen(/>\s+\d+ tmux-second +Enabled/);
    sendKeys("d");
    await seeOnScreen("Disable channel tmux-second? (y/n)");
    sendKeys("y");
    await seeOnScreen("Channel tmux-second disabled");
    await seeOnScreen(/>\s+\d+ tmux-second +Disabled/);
    expect(statusOf(channelId)).toBe(ChannelStatus.ManuallyDisabled);

    const screen = capture().replace(/\n+$/, "").split("\n");
    expect(screen.length).toBeLessThanOrEqual(24);
    expect(screen.at(-1)).toContain("q quit");

    sendKeys("q");
    await eventually(
      () => !sessionAlive(),
      () => `the session to end; the pane shows:\n${capture()}`,
    );
    await eventually(
      () => existsSync(rc),
      () => "the exit code file",
    );
    expect(readFileSync(rc, "utf8").trim()).toBe("0");
  }, 60_000);
});
