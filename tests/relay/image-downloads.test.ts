import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startFakeGemini } from "../support/fake-gemini";
import { type FakeUpstream, startFakeUpstream } from "../support/fake-upstream";
import { failure, startRelayEnv, type RelayEnv } from "./support";

const MODEL = "gemini-img";
/** A PNG's signature and a little more: the bytes the upstream must receive. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const WORKER_KEY = "wk-secret";

describe("image URLs for families that take bytes (Gemini): downloaded by the relay, or by the worker", () => {
  let r: RelayEnv;
  let gemini: FakeUpstream;
  let images: ReturnType<typeof Bun.serve>;
  const workerCalls: any[] = [];
  let worker: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    images = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        const path = new URL(request.url).pathname;
        if (path === "/cat.png") return new Response(PNG, { headers: { "content-type": "image/png" } });
        if (path === "/moved.png") return new Response(null, { status: 302, headers: { location: "/cat.png" } });
        if (path === "/page.html") return new Response("<html></html>", { headers: { "content-type": "text/html" } });
        if (path === "/huge.png") {
          let sent = 0;
          const chunk = new Uint8Array(1024 * 1024);
          const body = new ReadableStream({
            pull(controller) {
              if (sent++ > 40) return controller.close();
              controller.enqueue(chunk);
            },
          });
          return new Response(body, { headers: { "content-type": "image/png" } });
        }
        return new Response("no", { status: 404 });
      },
    });
    worker = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(request) {
        const body = await request.json();
        workerCalls.push(body);
        if (body.key !== WORKER_KEY) return new Response("bad key", { status: 403 });
        return new Response(PNG, { headers: { "content-type": "image/png" } });
      },
    });
    r = await startRelayEnv("sqlite");
    gemini = startFakeGemini();
    await r.setPrices({ [MODEL]: 1 });
    await r.addChannel({ type: 24, key: "AIza-upstream", models: MODEL }, gemini);
  });
  afterAll(async () => {
    images.stop(true);
    worker.stop(true);
    await gemini.stop();
    await r.stop();
  });

  const askWith = (url: string) =>
    r.openai().chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url } },
          ],
        },
      ],
    });
  const inlineDataSent = () =>
    gemini.requests
      .at(-1)!
      .body.contents.flatMap((c: any) => c.parts)
      .find((p: any) => p.inlineData)?.inlineData;

  test("without a worker the relay downloads the image (following a redirect) and sends its bytes", async () => {
    await askWith(`http://127.0.0.1:${images.port}/moved.png`);
    expect(inlineDataSent()).toEqual({ mimeType: "image/png", data: Buffer.from(PNG).toString("base64") });
  });

  test("a private address the upstream policy does not allow, a page that is no image and one beyond 20 MB are refused with 400, nothing sent", async () => {
    const seen = gemini.requests.length;
    for (const [url, message] of [
      ["http://10.255.255.1/cat.png", "not allowed by the upstream address policy"],
      [`http://127.0.0.1:${images.port}/page.html`, "it is not an image (text/html)"],
      [`http://127.0.0.1:${images.port}/huge.png`, "it is larger than 20 MB"],
      [`http://127.0.0.1:${images.port}/gone.png`, "HTTP 404"],
    ]) {
      const refused = await failure(askWith(url!));
      expect({ url, status: refused.status, code: refused.code }).toEqual({
        url,
        status: 400,
        code: "image_download_failed",
      });
      expect(refused.message).toContain(message!);
    }
    expect(gemini.requests.length).toBe(seen);
  });

  test("with WorkerUrl the worker fetches the image, told the address and WorkerValidKey", async () => {
    await r.s.root.put("/api/option/", { key: "WorkerUrl", value: `http://127.0.0.1:${worker.port}` });
    await r.s.root.put("/api/option/", { key: "WorkerValidKey", value: WORKER_KEY });
    await askWith("http://10.255.255.1/cat.png");
    expect(workerCalls.at(-1)).toEqual({ url: "http://10.255.255.1/cat.png", key: WORKER_KEY, method: "GET" });
    expect(inlineDataSent()?.data).toBe(Buffer.from(PNG).toString("base64"));
    await r.s.root.put("/api/option/", { key: "WorkerValidKey", value: "wrong" });
    expect((await failure(askWith("http://10.255.255.1/cat.png"))).message).toContain("HTTP 403");
    await r.s.root.put("/api/option/", { key: "WorkerUrl", value: "" });
  });
});

describe("a retry after the images were inlined for a family that takes bytes", () => {
  const RETRIED = "img-retried";
  let r: RelayEnv;
  let gemini: FakeUpstream;
  let openai: FakeUpstream;
  let images: ReturnType<typeof Bun.serve>;
  const inlined = `data:image/png;base64,${Buffer.from(PNG).toString("base64")}`;

  beforeAll(async () => {
    images = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response(PNG, { headers: { "content-type": "image/png" } }),
    });
    r = await startRelayEnv("sqlite");
    gemini = startFakeGemini();
    openai = startFakeUpstream();
    await r.s.ctx.options.set("RetryTimes", 1);
    await r.setPrices({ [RETRIED]: 1 });
    await r.addChannel({ type: 24, key: "AIza-upstream", models: RETRIED, priority: 10 }, gemini);
    await r.addChannel({ models: RETRIED, priority: 0 }, openai);
    gemini.setBehavior({ status: 500 });
  });
  afterAll(async () => {
    images.stop(true);
    await gemini.stop();
    await openai.stop();
    await r.stop();
  });

  const imageUrlSent = () => openai.requests.at(-1)!.body.messages[0].content[1].image_url.url;

  test("an OpenAI chat call: the next channel gets the inlined image", async () => {
    await r.openai().chat.completions.create({
      model: RETRIED,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is this?" },
            { type: "image_url", image_url: { url: `http://127.0.0.1:${images.port}/cat.png` } },
          ],
        },
      ],
    });
    expect(gemini.requests).toHaveLength(1);
    expect(imageUrlSent()).toBe(inlined);
  });

  test("an Anthropic Messages call (translated): the next channel gets the inlined image", async () => {
    const reply = await fetch(`${r.s.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": r.key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: RETRIED,
        max_tokens: 16,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this?" },
              { type: "image", source: { type: "url", url: `http://127.0.0.1:${images.port}/cat.png` } },
            ],
          },
        ],
      }),
    });
    expect(reply.status).toBe(200);
    expect(imageUrlSent()).toBe(inlined);
  });
});
