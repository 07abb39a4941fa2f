import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { TaskPoller } from "../../../src/service/tasks/poller";
import { DIALECTS } from "../../support/databases";
import { startFakeSuno, type FakeSuno } from "../../support/fake-suno";
import { startRelayEnv, TOKEN_QUOTA, USER_QUOTA, type RelayEnv } from "../../relay/support";
import { call, pollerOf, refundLogs } from "../../tasks/support";

const KEY = "suno-upstream-key";
/** Default ModelPrice: suno_music $0.1, suno_lyrics $0.01. */
const MUSIC = 50_000;
const LYRICS = 5_000;

describe.each(DIALECTS)("Suno relay on %s", (dialect) => {
  let r: RelayEnv;
  let suno: FakeSuno;
  let poller: TaskPoller;
  let spent = 0;
  const expectSpent = async () =>
    expect({ user: (await r.userRow()).quota, token: (await r.tokenRow()).remain_quota }).toEqual({
      user: USER_QUOTA - spent,
      token: TOKEN_QUOTA - spent,
    });
  const fetchSong = (id: string) => call(r, "GET", `/suno/fetch/${id}`);

  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    suno = startFakeSuno(KEY);
    await r.addChannel({ type: 36, key: KEY, base_url: suno.url, models: "suno_music,suno_lyrics" });
    poller = pollerOf(r.s.ctx);
  });
  afterAll(async () => {
    await poller.stop();
    await r.stop();
    await suno.stop();
  });

  test("music: submitted over a type-36 channel, charged suno_music at submit, followed to SUCCESS with its audio", async () => {
    const submitted = await call(r, "POST", "/suno/submit/music", { prompt: "a song about foxes", mv: "chirp-v3-5" });
    expect(submitted.status).toBe(200);
    expect(submitted.body.code).toBe("success");
    expect(submitted.body.data).toStartWith("song-");
    spent += MUSIC;
    await expectSpent();
    const id = submitted.body.data as string;
    expect((await fetchSong(id)).body.data).toMatchObject({ task_id: id, action: "MUSIC", status: "SUBMITTED" });
    await poller.round();
    expect((await fetchSong(id)).body.data).toMatchObject({ status: "IN_PROGRESS", progress: "40%" });
    await poller.round();
    const done = (await fetchSong(id)).body.data;
    expect(done).toMatchObject({ status: "SUCCESS", progress: "100%", finish_time: 1_700_000_080 });
    expect(done.data[0].audio_url).toBe(`${suno.url}/audio/${id}.mp3`);
    const row = await r.s.ctx.db.k.selectFrom("tasks").selectAll().where("task_id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ platform: "suno", action: "MUSIC", quota: MUSIC, status: "SUCCESS" });
    await poller.round();
    await expectSpent();
  });

  test("lyrics are charged suno_lyrics; POST /suno/fetch lists the caller's own tasks", async () => {
    const id = (await call(r, "POST", "/suno/submit/lyrics", { prompt: "fox lyrics" })).body.data as string;
    spent += LYRICS;
    await expectSpent();
    const listed = await call(r, "POST", "/suno/fetch", { ids: [id, "song-unknown"] });
    expect(listed.body).toMatchObject({ code: "success", data: [{ task_id: id, action: "LYRICS" }] });
  });

  test("a failed song is refunded once; an upstream 429 is answered 429 in the task shape and charges nothing", async () => {
    const before = (await refundLogs(r)).length;
    const id = (await call(r, "POST", "/suno/submit/music", { prompt: "fail" })).body.data as string;
    for (let i = 0; i < 3; i++) await poller.round();
    expect((await fetchSong(id)).body.data).toMatchObject({ status: "FAILURE", fail_reason: "song generation failed" });
    expect((await refundLogs(r)).slice(before).map((l) => l.quota)).toEqual([MUSIC]);
    const busy = await call(r, "POST", "/suno/submit/music", { prompt: "busy" });
    expect(busy.status).toBe(429);
    expect(Object.keys(busy.body).sort()).toEqual(["code", "data", "message"]);
    await expectSpent();
  });

  test("bad input in {code, message, data}: unknown action, missing prompt, another user's task", async () => {
    const unknown = await call(r, "POST", "/suno/submit/video", { prompt: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "invalid_request", data: null });
    expect(unknown.body.message).toContain("unknown action: video");
    const empty = await call(r, "POST", "/suno/submit/music", { mv: "chirp-v3-5" });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain("prompt or gpt_description_prompt is required");
    const id = (await call(r, "POST", "/suno/submit/lyrics", { prompt: "mine" })).body.data as string;
    spent += LYRICS;
    const other = await r.s.newUser();
    await r.s.root.put("/api/user/", { id: other.userId, quota: USER_QUOTA });
    const { key } = await r.newKey({}, other);
    const theirs = await call(r, "GET", `/suno/fetch/${id}`, undefined, { authorization: `Bearer ${key}` });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: "task_not_found", data: null });
    await expectSpent();
  });
});
