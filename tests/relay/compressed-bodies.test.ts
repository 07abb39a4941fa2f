import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import zlib from "node:zlib";
import { DIALECTS } from "../support/databases";
import { expectedQuota, startRelayEnv, type RelayEnv } from "./support";

const COMPRESS: Record<string, (bytes: Buffer) => Buffer<ArrayBuffer>> = {
  gzip: (bytes) => zlib.gzipSync(bytes),
  deflate: (bytes) => zlib.deflateSync(bytes),
  br: (bytes) => zlib.brotliCompressSync(bytes),
  zstd: (bytes) => zlib.zstdCompressSync(bytes),
};

const CHAT = Buffer.from(
  JSON.stringify({ model: "zip-model", messages: [{ role: "user", content: "Say something about compression." }] }),
);

describe.each(DIALECTS)("compressed request bodies on %s", (dialect) => {
  let r: RelayEnv;
  beforeAll(async () => {
    r = await startRelayEnv(dialect, { MAX_REQUEST_BODY_MB: "1" });
    await r.setPrices({ "zip-model": 2 });
    await r.addChannel({ models: "zip-model,whisper-1" });
  });
  afterAll(() => r.stop());

  const post = (path: string, body: BodyInit, headers: Record<string, string>) =>
    fetch(`${r.s.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${r.key}`, "content-type": "application/json", ...headers },
      body,
    });

  for (const [coding, compress] of Object.entries(COMPRESS)) {
    test(`Content-Encoding: ${coding} is decoded: the upstream gets the plain body, billed exactly as the plain call`, async () => {
      const plain = await post("/v1/chat/completions", CHAT, {});
      expect(plain.status).toBe(200);
      const plainLog = (await r.consumeLogs()).at(-1);
      const reply = await post("/v1/chat/completions", compress(CHAT), { "content-encoding": coding });
      expect(reply.status).toBe(200);
      expect(r.fake.requests.at(-1)!.body).toEqual(JSON.parse(CHAT.toString()));
      const log = (await r.consumeLogs()).at(-1);
      expect(log.id).not.toBe(plainLog.id);
      expect([log.prompt_tokens, log.completion_tokens, log.quota]).toEqual([
        plainLog.prompt_tokens,
        plainLog.completion_tokens,
        plainLog.quota,
      ]);
      expect(log.quota).toBe(expectedQuota({ prompt: log.prompt_tokens, completion: log.completion_tokens, ratio: 2 }));
    });
  }

  test("a compressed upload (form data) is decoded too", async () => {
    const form = new FormData();
    form.append("model", "whisper-1");
    form.append("file", new File([new Uint8Array([1, 2, 3, 4])], "a.mp3", { type: "audio/mpeg" }));
    const encoded = new Request("http://x/", { method: "POST", body: form });
    const contentType = encoded.headers.get("content-type")!;
    const body = zlib.gzipSync(Buffer.from(await encoded.arrayBuffer()));
    const reply = await post("/v1/audio/transcriptions", body, {
      "content-type": contentType,
      "content-encoding": "gzip",
    });
    expect(reply.status).toBe(200);
    expect(r.fake.requests.at(-1)!.body).toMatchObject({ model: "whisper-1", file: { name: "a.mp3", size: 4 } });
  });

  test("a gzip bomb is refused with 413 by its decoded size, without inflating it all", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 });
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    const before = (await r.consumeLogs()).length;
    const started = performance.now();
    const reply = await post("/v1/chat/completions", bomb, { "content-encoding": "gzip" });
    expect(reply.status).toBe(413);
    expect((await reply.json()).error.code).toBe("request_too_large");
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await r.consumeLogs()).length).toBe(before);
  });

  test("an unknown Content-Encoding is refused with 415 in OpenAI's shape; a corrupt body with 400", async () => {
    const unknown = await post("/v1/chat/completions", CHAT, { "content-encoding": "compress" });
    expect(unknown.status).toBe(415);
    const body = await unknown.json();
    expect(body.error.message).toContain('unsupported Content-Encoding "compress"');
    expect(body.error.type).toBe("invalid_request_error");
    const corrupt = await post("/v1/chat/completions", CHAT, { "content-encoding": "gzip" });
    expect(corrupt.status).toBe(400);
    expect((await corrupt.json()).error.message).toContain("could not be decoded");
  });
});
