import { describe, expect, test } from "bun:test";
import { parseRelayRequest } from "../../src/gateway/relay/parse";
import { ENDPOINTS } from "../../src/service/relay/endpoints";

const CHAT = "/v1/chat/completions";
const parse = (body: string) =>
  parseRelayRequest(
    new Request(`http://gateway${CHAT}`, { method: "POST", body, headers: { "content-type": "application/json" } }),
    CHAT,
    ENDPOINTS[CHAT]!,
    1 << 20,
  );

describe("the body sent upstream", () => {
  test("a stream whose client did not ask for usage asks for it upstream; every other member is kept", async () => {
    const sent = { model: "m", messages: [{ role: "user", content: "}{" }], stream: true, temperature: 0.5 };
    const request = await parse(`${JSON.stringify(sent)}\n  `);
    const upstream = request.upstream("m");
    expect(JSON.parse(upstream.body as string)).toEqual({ ...sent, stream_options: { include_usage: true } });
    expect(request.clientWantsUsage).toBe(false);
  });

  test("the client's own stream_options are kept beside include_usage", async () => {
    const request = await parse(
      JSON.stringify({ model: "m", messages: [], stream: true, stream_options: { include_obfuscation: false } }),
    );
    expect(JSON.parse(request.upstream("m").body as string).stream_options).toEqual({
      include_obfuscation: false,
      include_usage: true,
    });
  });

  test("a mapped model is renamed upstream, with usage asked for", async () => {
    const request = await parse(JSON.stringify({ model: "alias", messages: [], stream: true }));
    expect(JSON.parse(request.upstream("real").body as string)).toEqual({
      model: "real",
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  test("a call that needs no change goes upstream as the client sent it", async () => {
    const text = '{ "model": "m",  "messages": [] }';
    expect((await parse(text)).upstream("m").body).toBe(text);
    const asked = JSON.stringify({ model: "m", messages: [], stream: true, stream_options: { include_usage: true } });
    expect((await parse(asked)).upstream("m").body).toBe(asked);
  });
});
