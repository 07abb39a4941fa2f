import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { NewLogRow } from "../../src/db/schema";
import { csvField } from "../../src/service/logs/csv";
import { BAD_CHANNEL, BAD_TYPE } from "../../src/service/logs/filter";
import { TARGET_REQUIRED } from "../../src/service/logs/cleanup";
import { nowSeconds } from "../../src/service/time";
import { newAdmin } from "../support/channels";
import { expectFailure, type ApiClient, type Reply } from "../support/client";
import { DIALECTS } from "../support/databases";
import { countRows } from "../support/rows";
import { startRelayEnv, type RelayEnv } from "../relay/support";

/** The fixture's window, far in the past so the relay's own rows never fall in it. */
const T = 1_700_000_000;
const WINDOW = `start_timestamp=${T}&end_timestamp=${T + 100}`;
const ODD_MODEL = 'gpt,"4"';
const INSUFFICIENT = "Unauthorized, insufficient privileges";
const LOG_FIELDS = [
  "channel",
  "channel_name",
  "completion_tokens",
  "content",
  "created_at",
  "group",
  "id",
  "ip",
  "is_stream",
  "model_name",
  "other",
  "prompt_tokens",
  "quota",
  "request_id",
  "token_id",
  "token_name",
  "type",
  "use_time",
  "user_id",
  "username",
];
const OTHER = JSON.stringify({
  model_ratio: 2,
  frt: 120,
  admin_info: { use_channel: [1, 2] },
  stream_status: { status: "ok", end_reason: "done" },
});

type Row = Omit<NewLogRow, "user_id" | "username"> & { key: string; who: "alice" | "bob" };
/** key, who, created_at offset, type, token, model, channel (index into the two channels), group, quota, prompt, completion. */
const FIXTURE: [string, Row["who"], number, number, string, string, 0 | 1 | 2, string, number, number, number][] = [
  ["r1", "alice", 0, 2, "tk-a", "gpt-4o", 1, "default", 100, 10, 5],
  ["r2", "alice", 10, 2, "tk-b", ODD_MODEL, 2, "vip", 200, 20, 10],
  ["r3", "bob", 20, 2, "tk-a", "gpt-4o", 1, "default", 300, 30, 15],
  ["r4", "bob", 20, 5, "tk-a", "gpt-4o", 2, "default", 0, 0, 0],
  ["r5", "alice", 30, 1, "", "", 0, "", 1000, 0, 0],
  ["r6", "bob", 40, 2, "tk-c", ODD_MODEL, 2, "vip", 400, 40, 20],
  ["r7", "alice", 5, 2, "tk-a", "gpt-4o", 1, "default", 50, 5, 5],
  ["r8", "alice", 100, 2, "tk-a", "gpt-4o", 1, "default", 7, 1, 1],
];

/** A tiny RFC 4180 reader, to check what the export writes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") record.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n")
      record.push(field), records.push(record), (field = ""), (record = []), i++;
    else field += c;
  }
  return records;
}

describe.each(DIALECTS)("usage logs on %s", (dialect) => {
  let r: RelayEnv;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let channels: [number, number];
  const ids = new Map<string, number>();
  const rows = new Map<string, NewLogRow>();

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    alice = r.user;
    bob = await r.s.newUser();
    admin = await newAdmin(r.s);
    await r.setPrices({ "test-chat": 1 });
    channels = [
      await r.addChannel({ name: "first", models: "test-chat" }),
      await r.addChannel({ name: "second", models: "none" }),
    ];
    for (const [key, who, offset, type, token, model, channel, group, quota, prompt, completion] of FIXTURE) {
      const user = who === "alice" ? alice : bob;
      const row: NewLogRow = {
        user_id: user.userId!,
        username: user.username,
        created_at: T + offset,
        type,
        token_name: token,
        model_name: model,
        channel_id: channel === 0 ? 0 : channels[channel - 1],
        group,
        quota,
        prompt_tokens: prompt,
        completion_tokens: completion,
        other: type === 2 ? OTHER : "",
        content: `row ${key}`,
        is_stream: key === "r2" ? 1 : 0,
      };
      await r.s.ctx.db.k.insertInto("logs").values(row).execute();
      const { id } = await r.s.ctx.db.k.selectFrom("logs").select("id").orderBy("id", "desc").executeTakeFirstOrThrow();
      ids.set(key, Number(id));
      rows.set(key, row);
    }
  });
  afterAll(() => r.stop());

  const data = async (reply: Promise<Reply>) => {
    const { body } = await reply;
    expect(body.success).toBe(true);
    return body.data;
  };
  const keysOf = (items: { id: number }[]) =>
    items.map((item) => [...ids].find(([, id]) => id === item.id)?.[0] ?? item.id);
  const listed = async (c: ApiClient, path: string) => keysOf((await data(c.get(path))).items);

  describe("GET /api/log/ (admin)", () => {
    test("answers {items, page, page_size, total}, newest first (created_at desc, then id desc)", async () => {
      const page = await data(admin.get(`/api/log/?${WINDOW}&p=1&page_size=3`));
      expect(Object.keys(page).sort()).toEqual(["items", "page", "page_size", "total"]);
      expect(page).toMatchObject({ page: 1, page_size: 3, total: 8 });
      expect(keysOf(page.items)).toEqual(["r8", "r6", "r5"]);
      expect(await listed(admin, `/api/log/?${WINDOW}&p=2&page_size=3`)).toEqual(["r4", "r3", "r2"]);
      expect(await listed(admin, `/api/log/?${WINDOW}&p=3&page_size=3`)).toEqual(["r7", "r1"]);
      expect(await data(admin.get(`/api/log/?${WINDOW}&p=9&page_size=3`))).toEqual({
        items: [],
        page: 9,
        page_size: 3,
        total: 8,
      });
    });

    test("an item holds every log field, the channel's name and the whole `other`", async () => {
      const [item] = (
        await data(
          admin.get(`/api/log/?${WINDOW}&model_name=${encodeURIComponent(ODD_MODEL)}&username=${alice.username}`),
        )
      ).items;
      expect(Object.keys(item).sort()).toEqual(LOG_FIELDS);
      expect(item).toMatchObject({
        id: ids.get("r2"),
        user_id: alice.userId,
        username: alice.username,
        created_at: T + 10,
        type: 2,
        token_name: "tk-b",
        model_name: ODD_MODEL,
        channel: channels[1],
        channel_name: "second",
        group: "vip",
        quota: 200,
        prompt_tokens: 20,
        completion_tokens: 10,
        is_stream: true,
        content: "row r2",
      });
      expect(JSON.parse(item.other)).toEqual(JSON.parse(OTHER));
    });

    const cases: [string, string, string[]][] = [
      ["type", "type=2", ["r8", "r6", "r3", "r2", "r7", "r1"]],
      ["type 0 means every type", "type=0", ["r8", "r6", "r5", "r4", "r3", "r2", "r7", "r1"]],
      ["username", "username=BOB", ["r6", "r4", "r3"]],
      ["token_name", "token_name=tk-a", ["r8", "r4", "r3", "r7", "r1"]],
      [
        "model_name (exact: a name with a comma and a quote)",
        `model_name=${encodeURIComponent(ODD_MODEL)}`,
        ["r6", "r2"],
      ],
      ["model_name matches whole names only", "model_name=gpt", []],
      ["channel", "channel=CH2", ["r6", "r4", "r2"]],
      ["group", "group=vip", ["r6", "r2"]],
      [
        "start_timestamp (inclusive)",
        `start_timestamp=${T + 20}&end_timestamp=${T + 100}`,
        ["r8", "r6", "r5", "r4", "r3"],
      ],
      ["end_timestamp (inclusive)", `start_timestamp=${T}&end_timestamp=${T + 10}`, ["r2", "r7", "r1"]],
      [
        "timestamps of 0 are not set",
        `model_name=${encodeURIComponent(ODD_MODEL)}&start_timestamp=0&end_timestamp=0`,
        ["r6", "r2"],
      ],
      [
        "several at once",
        "type=2&username=ALICE&token_name=tk-a&model_name=gpt-4o&channel=CH1&group=default",
        ["r8", "r7", "r1"],
      ],
    ];
    test.each(cases)("filter: %s", async (_, filter, expected) => {
      const query = filter
        .replace("BOB", bob.username)
        .replace("ALICE", alice.username)
        .replace("CH1", String(channels[0]))
        .replace("CH2", String(channels[1]));
      const time = filter.includes("timestamp") ? "" : `${WINDOW}&`;
      const page = await data(admin.get(`/api/log/?${time}${query}&page_size=100`));
      expect(keysOf(page.items)).toEqual(expected);
      expect(page.total).toBe(expected.length);
    });

    test("without filters the total counts every row", async () => {
      await r.flushed();
      const page = await data(admin.get("/api/log/?page_size=1"));
      expect(page.total).toBe(await countRows(r.s.ctx, "logs"));
      await r.s.ctx.db.k
        .insertInto("logs")
        .values({ user_id: bob.userId!, username: bob.username, created_at: T - 1, type: 4 })
        .execute();
      expect((await data(admin.get("/api/log/?page_size=1"))).total).toBe(await countRows(r.s.ctx, "logs"));
    });

    test("an end an hour ahead (the console's default) still leaves out rows written later than it", async () => {
      const now = nowSeconds();
      const ahead = (at: number) => ({
        user_id: bob.userId!,
        username: bob.username,
        created_at: at,
        type: 4,
        model_name: "m-ahead",
      });
      await r.s.ctx.db.k
        .insertInto("logs")
        .values([ahead(now - 10), ahead(now + 7200)])
        .execute();
      const totalUpTo = async (end: number) =>
        (await data(admin.get(`/api/log/?model_name=m-ahead&end_timestamp=${end}`))).total;
      expect(await totalUpTo(now + 3600)).toBe(1);
      expect(await totalUpTo(now + 9000)).toBe(2);
      expect((await data(admin.get(`/api/log/stat?username=${bob.username}&end_timestamp=${now + 3600}`))).quota).toBe(
        700,
      );
    });

    test("an ordinary user is refused; without a sign-in the answer is 401", async () => {
      for (const path of ["/api/log/", "/api/log/stat", "/api/log/export"]) {
        expectFailure(await alice.get(path), 200, INSUFFICIENT);
        expect((await r.s.client().get(path)).status).toBe(401);
      }
      expect((await r.s.client().get("/api/log/self")).status).toBe(401);
    });

    const refusals: [string, string, string][] = [
      ["start_timestamp=yesterday", "start_timestamp must be a unix time in seconds", "list"],
      ["end_timestamp=1.5", "end_timestamp must be a unix time in seconds", "stat"],
      [`start_timestamp=${T + 10}&end_timestamp=${T}`, "start_timestamp must not be after end_timestamp", "list"],
      ["type=x", BAD_TYPE, "stat"],
      ["type=9", BAD_TYPE, "list"],
      ["channel=-1", BAD_CHANNEL, "export"],
    ];
    test.each(refusals)("%s is refused with a clear 400", async (query, message, call) => {
      const path = { list: "/api/log/", stat: "/api/log/stat", export: "/api/log/export" }[call];
      expectFailure(await admin.get(`${path}?${query}`), 400, message);
    });
  });

  describe("GET /api/log/self/ (own rows)", () => {
    test("a user sees only their own rows, newest first, with the same paging", async () => {
      const page = await data(bob.get(`/api/log/self/?${WINDOW}&page_size=2`));
      expect(page).toMatchObject({ page: 1, page_size: 2, total: 3 });
      expect(keysOf(page.items)).toEqual(["r6", "r4"]);
      expect(await listed(alice, `/api/log/self?${WINDOW}&page_size=100`)).toEqual(["r8", "r5", "r2", "r7", "r1"]);
    });

    test("never shows the channel, admin_info or stream_status; the rest of `other` stays", async () => {
      const page = await data(alice.get(`/api/log/self/?${WINDOW}&page_size=100`));
      for (const item of page.items) {
        expect(Object.keys(item).sort()).toEqual(LOG_FIELDS);
        expect(item).toMatchObject({ channel: 0, channel_name: "", user_id: alice.userId });
      }
      const r1 = page.items.find((item: any) => item.id === ids.get("r1"));
      expect(JSON.parse(r1.other)).toEqual({ model_ratio: 2, frt: 120 });
      expect(JSON.stringify(page)).not.toContain("admin_info");
    });

    test("username and channel are not taken: the rows stay the caller's", async () => {
      const path = `/api/log/self/?${WINDOW}&username=${alice.username}&channel=${channels[0]}&page_size=100`;
      expect(await listed(bob, path)).toEqual(["r6", "r4", "r3"]);
    });

    test("the other filters narrow the caller's rows", async () => {
      expect(
        await listed(alice, `/api/log/self/?${WINDOW}&type=2&token_name=tk-a&model_name=gpt-4o&group=default`),
      ).toEqual(["r8", "r7", "r1"]);
      expect(await listed(alice, `/api/log/self/?start_timestamp=${T + 5}&end_timestamp=${T + 10}`)).toEqual([
        "r2",
        "r7",
      ]);
    });

    test("a real consume row from the relay: admins see the channel tried; the user does not", async () => {
      const stream = await r
        .openai()
        .chat.completions.create({ model: "test-chat", messages: [{ role: "user", content: "hi" }], stream: true });
      for await (const _ of stream);
      await r.flushed();
      const [mine] = (await data(alice.get("/api/log/self/?type=2&model_name=test-chat&page_size=1"))).items;
      const [theirs] = (
        await data(admin.get(`/api/log/?type=2&model_name=test-chat&username=${alice.username}&page_size=1`))
      ).items;
      expect(theirs).toMatchObject({ id: mine.id, channel: channels[0], channel_name: "first", is_stream: true });
      expect(JSON.parse(theirs.other)).toMatchObject({
        admin_info: { use_channel: [channels[0]] },
        stream_status: { end_reason: "done" },
      });
      expect(mine).toMatchObject({ channel: 0, channel_name: "" });
      const shown = JSON.parse(mine.other);
      expect(shown).not.toHaveProperty("admin_info");
      expect(shown).not.toHaveProperty("stream_status");
      expect(shown).toMatchObject({ model_ratio: 1, group_ratio: 1 });
    });
  });

  describe("GET /api/log/stat and /api/log/self/stat", () => {
    let carol: ApiClient;
    let now: number;
    beforeAll(async () => {
      carol = await r.s.newUser();
      now = nowSeconds();
      const recent = (ago: number, type: number, prompt: number, completion: number, quota = 1) => ({
        user_id: carol.userId!,
        username: carol.username,
        created_at: now - ago,
        type,
        quota,
        prompt_tokens: prompt,
        completion_tokens: completion,
        model_name: "m-recent",
      });
      await r.s.ctx.db.k
        .insertInto("logs")
        .values([
          recent(5, 2, 7, 3),
          recent(30, 2, 11, 0),
          recent(50, 2, 1, 1),
          recent(10, 5, 100, 100),
          recent(75, 2, 50, 50),
          recent(600, 2, 9, 9),
        ])
        .execute();
    });

    test("quota sums the consume rows matching the filters and the time range", async () => {
      const quotaOf = async (query: string) => (await data(admin.get(`/api/log/stat?${query}`))).quota;
      expect(await quotaOf(WINDOW)).toBe(1057);
      expect(await quotaOf(`${WINDOW}&model_name=gpt-4o`)).toBe(457);
      expect(await data(admin.get(`/api/log/stat?${WINDOW}&username=${bob.username}`))).toEqual({
        quota: 700,
        rpm: 0,
        tpm: 0,
      });
      expect(await quotaOf(`start_timestamp=${T}&end_timestamp=${T + 10}&channel=${channels[0]}`)).toBe(150);
      expect(await quotaOf(`${WINDOW}&type=1`)).toBe(1057);
    });

    test("rpm and tpm count consume rows of the last 60 s, honouring the filters but not the time range", async () => {
      expect(await data(admin.get(`/api/log/stat?username=${carol.username}`))).toEqual({ quota: 5, rpm: 3, tpm: 23 });
      expect(await data(admin.get(`/api/log/stat?username=${carol.username}&${WINDOW}`))).toEqual({
        quota: 0,
        rpm: 3,
        tpm: 23,
      });
      expect(await data(admin.get(`/api/log/stat?username=${carol.username}&model_name=other`))).toEqual({
        quota: 0,
        rpm: 0,
        tpm: 0,
      });
    });

    test("a user's stat covers only their own rows, whatever username is asked for", async () => {
      expect(await data(carol.get(`/api/log/self/stat?username=${bob.username}`))).toEqual({
        quota: 5,
        rpm: 3,
        tpm: 23,
      });
      expect(await data(bob.get(`/api/log/self/stat?${WINDOW}`))).toEqual({ quota: 700, rpm: 0, tpm: 0 });
      expect(await data(alice.get(`/api/log/self/stat?${WINDOW}&token_name=tk-a`))).toEqual({
        quota: 157,
        rpm: 0,
        tpm: 0,
      });
    });
  });

  describe("CSV export", () => {
    const download = async (c: ApiClient, path: string) => {
      const response = await fetch(r.s.url + path, { headers: { cookie: c.cookie, "new-api-user": String(c.userId) } });
      const bytes = await response.arrayBuffer();
      return { response, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
    };

    test("GET /api/log/export streams the filtered rows as an attachment, quoted where needed", async () => {
      const { response, text } = await download(
        admin,
        `/api/log/export?${WINDOW}&model_name=${encodeURIComponent(ODD_MODEL)}`,
      );
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="logs-\d{8}-\d{6}\.csv"$/);
      expect(text.startsWith("\uFEFFtime,id,created_at,")).toBe(true);
      expect(text).toContain(',"gpt,""4""",');
      const [header, ...records] = parseCsv(text.slice(1));
      expect(header).toEqual([
        "time",
        "id",
        "created_at",
        "type",
        "username",
        "token_name",
        "model_name",
        "quota",
        "cost",
        "prompt_tokens",
        "completion_tokens",
        "use_time",
        "is_stream",
        "channel",
        "channel_name",
        "group",
        "ip",
        "request_id",
        "content",
        "other",
      ]);
      expect(records.map((record) => record[1])).toEqual([String(ids.get("r6")), String(ids.get("r2"))]);
      const r2 = Object.fromEntries(header!.map((name, i) => [name, records[1]![i]]));
      expect(r2).toMatchObject({
        time: new Date((T + 10) * 1000).toISOString().replace(".000Z", "Z"),
        model_name: ODD_MODEL,
        username: alice.username,
        channel: String(channels[1]),
        channel_name: "second",
        is_stream: "true",
        quota: "200",
        cost: "$0.0004",
        content: "row r2",
      });
      expect(JSON.parse(r2.other!)).toEqual(JSON.parse(OTHER));
    });

    test("a user's export has their rows only, without channel columns or admin-only parts", async () => {
      const { text } = await download(bob, `/api/log/self/export?${WINDOW}&username=${alice.username}`);
      const [header, ...records] = parseCsv(text.slice(1));
      expect(header).not.toContain("channel");
      expect(header).not.toContain("channel_name");
      expect(records.map((record) => record[1])).toEqual(["r6", "r4", "r3"].map((key) => String(ids.get(key))));
      expect(text).not.toContain("admin_info");
      expect(text).not.toContain("stream_status");
    });

    test("more rows than one read page stream complete, in order, even across equal times", async () => {
      const dave = await r.s.newUser();
      const many = Array.from({ length: 2345 }, (_, i) => ({
        user_id: dave.userId!,
        username: dave.username,
        created_at: T + 1000 + Math.floor(i / 7),
        type: 2,
        quota: i,
      }));
      for (let i = 0; i < many.length; i += 500)
        await r.s.ctx.db.k
          .insertInto("logs")
          .values(many.slice(i, i + 500))
          .execute();
      const { text } = await download(dave, "/api/log/self/export");
      const records = parseCsv(text.slice(1)).slice(1);
      const quotaAt = parseCsv(text.slice(1))[0]!.indexOf("quota");
      expect(records.map((record) => Number(record[quotaAt]))).toEqual(many.map((_, i) => i).reverse());
    });

    test("a bad filter is refused before anything streams; an ordinary user cannot export everyone's", async () => {
      expectFailure(
        await admin.get("/api/log/export?start_timestamp=soon"),
        400,
        "start_timestamp must be a unix time in seconds",
      );
      expectFailure(await bob.get("/api/log/export"), 200, INSUFFICIENT);
    });
  });

  describe("DELETE /api/log/?target_timestamp (root)", () => {
    const OLD = 1_500_000_000;
    const olderThan = async (target: number) =>
      Number(
        (
          await r.s.ctx.db.k
            .selectFrom("logs")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("created_at", "<", target)
            .executeTakeFirstOrThrow()
        ).n,
      );

    test("admins and users are refused, a missing or bad target is refused, and nothing is deleted", async () => {
      await r.s.ctx.db.k
        .insertInto("logs")
        .values([1, 2, 3].map((i) => ({ user_id: bob.userId!, created_at: OLD + i, type: 4 })))
        .execute();
      const before = await countRows(r.s.ctx, "logs");
      expectFailure(await admin.delete(`/api/log/?target_timestamp=${OLD + 100}`), 200, INSUFFICIENT);
      expectFailure(await bob.delete(`/api/log/?target_timestamp=${OLD + 100}`), 200, INSUFFICIENT);
      expectFailure(await r.s.root.delete("/api/log/"), 400, TARGET_REQUIRED);
      expectFailure(await r.s.root.delete("/api/log/?target_timestamp=0"), 400, TARGET_REQUIRED);
      expectFailure(
        await r.s.root.delete("/api/log/?target_timestamp=last-week"),
        400,
        "target_timestamp must be a unix time in seconds",
      );
      expect(await countRows(r.s.ctx, "logs")).toBe(before);
    });

    test("root deletes every row created before the target and answers the count; totals follow", async () => {
      const total = async () => (await data(admin.get("/api/log/?page_size=1"))).total;
      expect(await total()).toBe(await countRows(r.s.ctx, "logs"));
      const before = await countRows(r.s.ctx, "logs");
      const due = await olderThan(OLD + 3);
      expect(due).toBeGreaterThanOrEqual(2);
      expect(await data(r.s.root.delete(`/api/log/?target_timestamp=${OLD + 3}`))).toBe(due);
      expect(await olderThan(OLD + 3)).toBe(0);
      expect(await countRows(r.s.ctx, "logs")).toBe(before - due);
      expect(await total()).toBe(before - due);
      expect(await data(r.s.root.delete(`/api/log/?target_timestamp=${OLD + 3}`))).toBe(0);
    });
  });
});

describe("CSV fields", () => {
  test("quote commas, quotes and line breaks; a leading formula character is defused", () => {
    expect(csvField('gpt,"4"')).toBe('"gpt,""4"""');
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField(-1)).toBe("-1");
    expect(csvField(true)).toBe("true");
  });
});
