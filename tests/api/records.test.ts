import { beforeAll, describe, expect, test } from "bun:test";
import type { TestServer } from "../support/server";
import { useAdminServer } from "../support/channels";
import { expectFailure, type ApiClient } from "../support/client";
import { DIALECTS } from "../support/databases";

const FORBIDDEN = "Unauthorized, insufficient privileges";
const T = 1_700_000_000;

/** The two record screens: their paths, table, id filter and a row of theirs. */
const KINDS = [
  {
    name: "drawing tasks",
    path: "/api/mj",
    table: "midjourneys",
    idFilter: "mj_id",
    row: (user_id: number, channel_id: number, n: number) => ({
      user_id,
      channel_id,
      mj_id: `mj-${n}`,
      submit_time: T + n * 100,
      action: "IMAGINE",
      status: "SUCCESS",
      prompt: `cat ${n}`,
    }),
  },
  {
    name: "async tasks",
    path: "/api/task",
    table: "tasks",
    idFilter: "task_id",
    row: (user_id: number, channel_id: number, n: number) => ({
      user_id,
      channel_id,
      task_id: `task-${n}`,
      submit_time: T + n * 100,
      created_at: T,
      updated_at: T,
      platform: n % 2 ? "suno" : "kling",
      action: "MUSIC",
      status: "SUCCESS",
    }),
  },
] as const;

describe.each(DIALECTS)("drawing and async task records on %s", (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  useAdminServer(dialect, (started) => ({ s, admin } = started));

  describe.each(KINDS)("$name", (kind) => {
    let alice: ApiClient;
    let bob: ApiClient;
    const items = async (client: ApiClient, path: string) => {
      const reply = await client.get(path);
      expect(reply.body.success).toBe(true);
      return reply.body.data;
    };
    const ids = async (client: ApiClient, path: string) =>
      (await items(client, path)).items.map((row: any) => row[kind.idFilter]);

    /** alice: rows 1, 2, 3 (channels 1, 2, 1); bob: rows 4, 5 (channel 2); inserted in order, so 5 is newest. */
    beforeAll(async () => {
      [alice, bob] = [await s.newUser(), await s.newUser()];
      const rows = [
        kind.row(alice.userId!, 1, 1),
        kind.row(alice.userId!, 2, 2),
        kind.row(alice.userId!, 1, 3),
        kind.row(bob.userId!, 2, 4),
        kind.row(bob.userId!, 2, 5),
      ];
      for (const row of rows)
        await s.ctx.db.k
          .insertInto(kind.table)
          .values(row as any)
          .execute();
    });

    test("admin list: every user's records, newest first, paged {items, page, page_size, total}, channel shown", async () => {
      const data = await items(admin, `${kind.path}/?p=1&page_size=10`);
      expect(data).toMatchObject({ page: 1, page_size: 10, total: 5 });
      expect(data.items.map((row: any) => row[kind.idFilter])).toEqual(
        [5, 4, 3, 2, 1].map((n) => `${kind.idFilter.split("_")[0]}-${n}`),
      );
      expect(data.items[0]).toMatchObject({ channel_id: 2, user_id: bob.userId, submit_time: T + 500 });
    });

    test("paging: p and page_size pick the slice; the total stays", async () => {
      const data = await items(admin, `${kind.path}/?p=2&page_size=2`);
      expect(data).toMatchObject({ page: 2, page_size: 2, total: 5 });
      expect(data.items.map((row: any) => row.submit_time)).toEqual([T + 300, T + 200]);
    });

    test("admin filters: channel_id, the task id, and start/end timestamps on submit_time", async () => {
      expect(await ids(admin, `${kind.path}/?channel_id=1`)).toHaveLength(2);
      expect(await ids(admin, `${kind.path}/?${kind.idFilter}=${kind.idFilter.split("_")[0]}-4`)).toHaveLength(1);
      const ranged = await items(admin, `${kind.path}/?start_timestamp=${T + 200}&end_timestamp=${T + 400}`);
      expect(ranged.total).toBe(3);
      expect(ranged.items.map((row: any) => row.submit_time)).toEqual([T + 400, T + 300, T + 200]);
    });

    test("/self: only the caller's own records, without the channel; a channel_id filter is ignored", async () => {
      const own = await items(alice, `${kind.path}/self?channel_id=2`);
      expect(own.total).toBe(3);
      expect(own.items.every((row: any) => row.user_id === alice.userId && !("channel_id" in row))).toBe(true);
      expect((await items(bob, `${kind.path}/self/`)).total).toBe(2);
      expect((await items(bob, `${kind.path}/self?start_timestamp=${T + 500}`)).total).toBe(1);
    });

    test("refusals: an ordinary user may not list everyone's; a visitor gets 401; a bad timestamp or channel id is refused", async () => {
      expectFailure(await alice.get(`${kind.path}/`), 200, FORBIDDEN);
      expect((await s.client().get(`${kind.path}/self`)).status).toBe(401);
      expectFailure(
        await alice.get(`${kind.path}/self?end_timestamp=soon`),
        400,
        "end_timestamp must be a unix time in seconds",
      );
      expectFailure(await admin.get(`${kind.path}/?channel_id=x`), 400, "channel_id must be a channel id");
    });
  });

  test("async tasks also filter by platform", async () => {
    const reply = await admin.get("/api/task/?platform=suno");
    expect(reply.body.data.items.map((row: any) => row.task_id)).toEqual(["task-5", "task-3", "task-1"]);
  });
});
