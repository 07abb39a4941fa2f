import { startRelayEnv, type RelayEnv } from "./support";

const encoder = new TextEncoder();

/**
 * An upstream whose streams stay open until released: a model named `wait-…` gets no reply head until then (a call
 * waiting for its first token), any other one chunk, then nothing more until then (a stream past its head).
 */
function startHeldUpstream() {
  const { promise: held, resolve: release } = Promise.withResolvers<void>();
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(request) {
      const { model } = (await request.json()) as { model: string };
      if (model.startsWith("wait-")) await held;
      const body = new ReadableStream({
        async start(controller) {
          const chunk = { id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "hi" } }] };
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
          await held;
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    origin: server.url.origin,
    stop() {
      release();
      server.stop(true);
    },
  };
}

export interface HeldRelay {
  env: RelayEnv;
  stop(): Promise<void>;
}

/** A gateway on SQLite with one channel to a held upstream (see startHeldUpstream) serving `models`, each priced. */
export async function startHeldRelay(models: string[]): Promise<HeldRelay> {
  const upstream = startHeldUpstream();
  const env = await startRelayEnv("sqlite");
  await env.setPrices(Object.fromEntries(models.map((model) => [model, 1])));
  const channel = { url: upstream.origin } as Parameters<RelayEnv["addChannel"]>[1];
  await env.addChannel({ models: models.join(",") }, channel);
  return {
    env,
    async stop() {
      upstream.stop();
      await env.stop();
    },
  };
}

/**
 * Opens a streamed chat call with `body` over a raw socket (nothing of it kept here): resolves once it was sent
 * (`until: "sent"`) or once its first chunk came.
 */
export async function openRawCall(env: RelayEnv, body: string, until: "sent" | "first chunk"): Promise<void> {
  const { port } = new URL(env.s.url);
  let received = "";
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  await Bun.connect({
    hostname: "127.0.0.1",
    port: Number(port),
    socket: {
      open(socket) {
        socket.write(
          `POST /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\nauthorization: Bearer ${env.key}\r\n` +
            `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        if (until === "sent") resolve();
      },
      data(_socket, bytes) {
        received += bytes.toString();
        if (received.includes("data:")) resolve();
        else if (received.startsWith("HTTP/1.1 4") || received.startsWith("HTTP/1.1 5")) reject(new Error(received));
      },
    },
  });
  return promise;
}
