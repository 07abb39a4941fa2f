import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { overridesOf } from "../../src/service/relay/channel-overrides";
import { DIALECTS } from "../support/databases";
import { startRelayEnv, type RelayEnv } from "./support";

const MODEL = "po-model";

test("stored overrides never reach the model, the stream flag or a key header, whatever the row holds", () => {
  const parsed = overridesOf({
    param_override: '{"model":"cheap","stream":true,"temperature":0}',
    header_override: '{"Authorization":"Bearer stolen","X-Api-Key":"k","X-Team":"a"}',
  });
  expect(parsed).toEqual({ params: { temperature: 0 }, headers: { "X-Team": "a" } });
  expect(overridesOf({ param_override: "", header_override: "" })).toBeUndefined();
});

describe.each(DIALECTS)("per-channel param_override and header_override on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect);
    await r.setPrices({ [MODEL]: 1 });
    await r.addChannel({
      models: MODEL,
      param_override: '{"temperature":0.1,"metadata":{"team":"research"}}',
      header_override: '{"X-Team":"research","X-Trace":"{client_header:X-Trace-Id}"}',
    });
  });
  afterAll(() => r.stop());

  test("the body is merged last and the headers set last (a client header copied by name); model and key stay the channel's", async () => {
    const client = r.openai(undefined, { defaultHeaders: { "X-Trace-Id": "trace-42" } });
    await client.chat.completions.create({
      model: MODEL,
      temperature: 0.9,
      metadata: { user: "u1" },
      messages: [{ role: "user", content: "hi" }],
    });
    const seen = r.fake.requests.at(-1)!;
    expect(seen.body.temperature).toBe(0.1);
    expect(seen.body.metadata).toEqual({ user: "u1", team: "research" });
    expect(seen.body.model).toBe(MODEL);
    expect(seen.headers["x-team"]).toBe("research");
    expect(seen.headers["x-trace"]).toBe("trace-42");
    expect(seen.headers.authorization).toBe("Bearer sk-upstream-key");
    const [log] = (await r.consumeLogs()).slice(-1);
    expect(log.model_name).toBe(MODEL);
  });

  test("a copied client header the client did not send is left out", async () => {
    await r.openai().chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    expect(r.fake.requests.at(-1)!.headers["x-trace"]).toBeUndefined();
  });

  test("malformed override JSON, or an override of the model or the key, is refused with a clear message and creates nothing", async () => {
    const count = async () => (await r.s.ctx.db.k.selectFrom("channels").select("id").execute()).length;
    const before = await count();
    for (const [fields, message] of [
      [{ param_override: "{temperature: 1" }, "param_override must be valid JSON"],
      [{ param_override: "[1]" }, "param_override must be a JSON object"],
      [{ param_override: '{"model":"cheap"}' }, "param_override cannot set model"],
      [{ header_override: '{"Authorization":"Bearer x"}' }, "header_override cannot set Authorization"],
      [{ header_override: '{"X-A":1}' }, "header_override: the value of X-A must be one line of text"],
      [{ header_override: '{"bad name":"x"}' }, 'header_override: "bad name" is not a header name'],
    ] as const) {
      const reply = await r.s.root.post("/api/channel/", {
        type: 1,
        name: "bad",
        key: "sk-x",
        base_url: r.fake.url,
        models: MODEL,
        group: "default",
        ...fields,
      });
      expect({ fields, body: reply.body }).toEqual({ fields, body: { success: false, message } });
    }
    expect(await count()).toBe(before);
  });
});
