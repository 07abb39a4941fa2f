import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cozeChatBody } from "../../../src/gateway/relay/providers/coze/request";
import { failure, startRelayEnv, type RelayEnv } from "../../relay/support";
import { DIALECTS } from "../../support/databases";
import { startFakeCoze } from "../../support/fake-coze";
import type { LoopbackFake } from "../../support/loopback-fake";

const KEY = "pat_coze_test_key_123456";
const hi = [{ role: "user" as const, content: "hi" }];

test("a Coze channel without a bot id is refused before anything is sent, naming the field", () => {
  expect(() => cozeChatBody({ messages: hi }, "")).toThrow("names no bot id");
});

test("the conversation must end with the user's question (it is the query)", () => {
  expect(() => cozeChatBody({ messages: [...hi, { role: "assistant", content: "yo" }] }, "b1")).toThrow(
    "the last message must be a user message",
  );
});

describe.each(DIALECTS)("Coze's own refusals on %s", (dialect) => {
  let r: RelayEnv;
  let upstream: LoopbackFake;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ "coze-bot": 1 });
    upstream = startFakeCoze(KEY, "the-real-bot");
  });
  afterAll(async () => {
    await r.stop();
    await upstream.stop();
  });

  test("a bot Coze does not know (its 200 {code, msg} reply) is a clear upstream error, stream or not, billed nothing", async () => {
    await r.addChannel({ type: 49, key: KEY, models: "coze-bot", other: "no-such-bot" }, upstream.asFake());
    const before = await r.userRow();
    for (const stream of [false, true]) {
      const error = await failure(
        (async () => {
          const reply = await r.openai().chat.completions.create({ model: "coze-bot", messages: hi, stream });
          if (stream) for await (const _ of reply as AsyncIterable<unknown>);
        })(),
      );
      expect(error.status).toBe(502);
      expect(error.message).toContain("bot not found");
      expect(error.message).not.toContain(KEY);
    }
    expect(upstream.requests.at(-1)!.body.bot_id).toBe("no-such-bot");
    expect((await r.userRow()).quota).toBe(before.quota);
  });
});
