import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { toFile } from "openai";
import { DIALECTS } from "../support/databases";
import { DEFAULT_CONTENT } from "../support/fake-upstream";
import { startRelayEnv, type RelayEnv } from "./support";

describe.each(DIALECTS)("every relay endpoint on %s", (dialect) => {
  let r: RelayEnv;
  const models = [
    "text-model",
    "omni-moderation-latest",
    "tts-1",
    "whisper-1",
    "rerank-model",
    "resp-model",
    "fake-drip-1300ms",
  ];
  beforeAll(async () => {
    r = await startRelayEnv(dialect, { STREAM_PING_SECONDS: "1" });
    await r.setPrices(Object.fromEntries(models.map((m) => [m, 1])));
    await r.addChannel({ models: models.join(",") });
  });
  afterAll(() => r.stop());

  const lastLog = async () => (await r.consumeLogs()).at(-1);

  test("/v1/completions", async () => {
    const reply = await r.openai().completions.create({ model: "text-model", prompt: "Say hi" });
    expect(reply.choices[0]!.text).toBe(DEFAULT_CONTENT);
    expect(await lastLog()).toMatchObject({ model_name: "text-model", completion_tokens: 4 });
  });

  test("/v1/moderations (default model when none is named)", async () => {
    const response = await fetch(`${r.s.url}/v1/moderations`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: JSON.stringify({ input: "hello" }),
    });
    expect(response.status).toBe(200);
    expect((await lastLog()).model_name).toBe("omni-moderation-latest");
  });

  test("/v1/audio/speech returns the audio bytes", async () => {
    const audio = await r.openai().audio.speech.create({ model: "tts-1", voice: "alloy", input: "hello there" });
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await lastLog()).model_name).toBe("tts-1");
  });

  test("/v1/audio/transcriptions and /translations take form data", async () => {
    const file = await toFile(new Uint8Array([1, 2, 3, 4]), "a.mp3", { type: "audio/mpeg" });
    const text = await r.openai().audio.transcriptions.create({ model: "whisper-1", file });
    expect(typeof text.text).toBe("string");
    expect(r.fake.requests.at(-1)!.body.model).toBe("whisper-1");
    const translated = await r.openai().audio.translations.create({ model: "whisper-1", file });
    expect(typeof translated.text).toBe("string");
  });

  test("/v1/rerank", async () => {
    const response = await fetch(`${r.s.url}/v1/rerank`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "rerank-model", query: "q", documents: ["a", "b"] }),
    });
    expect(response.status).toBe(200);
    expect((await response.json()).results.length).toBe(2);
    expect((await lastLog()).model_name).toBe("rerank-model");
  });

  test("/v1/responses, non-stream and stream, billed from input/output tokens", async () => {
    const reply = await r.openai().responses.create({ model: "resp-model", input: "hi" });
    expect(reply.output_text).toBe(DEFAULT_CONTENT);
    const log = await lastLog();
    expect(log.prompt_tokens).toBe(reply.usage!.input_tokens);
    expect(log.completion_tokens).toBe(reply.usage!.output_tokens);
    const stream = await r.openai().responses.create({ model: "resp-model", input: "hi", stream: true });
    let text = "";
    for await (const event of stream) if (event.type === "response.output_text.delta") text += event.delta;
    expect(text).toBe(DEFAULT_CONTENT);
    expect(JSON.parse((await lastLog()).other).usage_source).toBe("upstream");
  });

  test("a quiet stream gets ': PING' comments when STREAM_PING_SECONDS is set", async () => {
    const response = await fetch(`${r.s.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "fake-drip-1300ms", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const text = await response.text();
    expect(text).toContain(": PING");
    expect(text).toContain("data: [DONE]");
  }, 20_000);
});
