import { afterEach, describe, expect, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { postUpstream, UnsendableRequestError } from "../../src/gateway/upstream/client";
import { connect, idleCount } from "../../src/gateway/upstream/connections";
import { letGo, readAll } from "../../src/gateway/upstream/reply";

interface Conn {
  index: number;
  /** Bytes written but not yet taken by the socket (sent on drain). */
  unsent?: Uint8Array;
}

/** Writes all of `bytes`, the part the socket does not take now when it drains. */
function send(socket: Socket<Conn>, bytes: Uint8Array): number {
  const written = socket.write(bytes);
  if (written < bytes.length) socket.data.unsent = bytes.subarray(Math.max(0, written));
  return written;
}

/** Text as the Latin-1 string of its UTF-8 bytes, the way the raw server keeps what it received. */
const asBytes = (text: string) => Buffer.from(text).toString("latin1");

interface Wire {
  /** Bytes each connection received (one char per byte), in order of connection. */
  received: string[];
  sockets: Socket<Conn>[];
  /** Indexes of the connections closed, in order. */
  closed: number[];
}

/** A TCP server that answers what `reply` returns for each request (undefined: says nothing) on loopback. */
function rawServer(reply: (request: string, wire: Wire, socket: Socket<Conn>) => string | undefined) {
  const wire: Wire = { received: [], sockets: [], closed: [] };
  const server: TCPSocketListener<Conn> = Bun.listen<Conn>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        socket.data = { index: wire.received.length };
        wire.received.push("");
        wire.sockets.push(socket);
      },
      data(socket, data) {
        wire.received[socket.data.index] += data.toString("latin1"); // one char per byte: no character split between reads
        if (!wire.received[socket.data.index]!.includes("\r\n\r\n")) return;
        const answer = reply(wire.received[socket.data.index]!, wire, socket);
        if (answer !== undefined) socket.write(answer);
      },
      close(socket) {
        wire.closed.push(socket.data.index);
      },
      drain(socket) {
        const unsent = socket.data.unsent;
        socket.data.unsent = undefined;
        if (unsent) send(socket, unsent);
      },
    },
  });
  servers.push(server);
  return { url: `http://127.0.0.1:${server.port}`, wire };
}

const servers: { stop(force?: boolean): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

const ok = (body: string, extra = "") =>
  `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

describe("the upstream client", () => {
  test("sends the request framed by itself (host, length, no compression asked) and reads the reply", async () => {
    const { url, wire } = rawServer(() => ok('{"hi":1}'));
    const reply = await postUpstream(
      `${url}/v1/chat/completions?x=1`,
      { authorization: "Bearer k", "Content-Type": "application/json", Host: "evil" },
      '{"a":"é"}',
    );
    expect(reply.status).toBe(200);
    expect(reply.header("content-type")).toBe("application/json");
    expect(await reply.text()).toBe('{"hi":1}');
    const request = wire.received[0]!;
    expect(request.startsWith("POST /v1/chat/completions?x=1 HTTP/1.1\r\n")).toBe(true);
    expect(request).toContain(`\r\nhost: ${url.slice(7)}\r\n`);
    expect(request).not.toContain("evil");
    expect(request).toContain("\r\nauthorization: Bearer k\r\n");
    expect(request).toContain("\r\naccept-encoding: identity\r\n");
    expect(request).toContain("\r\ncontent-length: 10\r\n");
    expect(request.endsWith(asBytes('\r\n\r\n{"a":"é"}'))).toBe(true);
  });

  test("a body larger than the socket takes at once is sent whole (the rest when the socket drains)", async () => {
    const body = JSON.stringify({ text: "ü".repeat(3 * 1024 * 1024) });
    const { url } = rawServer((request) => {
      const length = Number(/content-length: (\d+)/.exec(request)![1]);
      const received = request.length - (request.indexOf("\r\n\r\n") + 4);
      return received < length ? undefined : ok(JSON.stringify({ received, same: request.endsWith(asBytes(body)) }));
    });
    const reply = await postUpstream(`${url}/v1/x`, {}, body);
    expect(JSON.parse(await reply.text())).toEqual({ received: Buffer.byteLength(body), same: true });
  });

  test("a reply that comes before the whole request was sent ends the connection: the rest is not read as a next request", async () => {
    const answered = new Set<number>();
    const { url, wire } = rawServer((_request, _w, socket) => {
      if (answered.has(socket.data.index)) return undefined;
      answered.add(socket.data.index);
      return ok('{"early":true}');
    });
    const body = JSON.stringify({ text: "x".repeat(8 * 1024 * 1024) });
    expect(await (await postUpstream(`${url}/v1/x`, {}, body)).text()).toBe('{"early":true}');
    expect(await (await postUpstream(`${url}/v1/x`, {}, "{}")).text()).toBe('{"early":true}');
    expect(wire.sockets).toHaveLength(2);
  });

  test("a connection whose TLS handshake does not finish in time is given up", async () => {
    const silent = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    servers.push(silent);
    const origin = { key: `https://127.0.0.1:${silent.port}`, hostname: "127.0.0.1", port: silent.port, tls: true };
    await expect(connect(origin, 200)).rejects.toThrow("did not accept the connection in time");
  });

  test("calls in sequence share one kept-alive connection", async () => {
    const { url, wire } = rawServer(() => ok("{}"));
    for (let i = 0; i < 5; i++) await (await postUpstream(`${url}/v1/x`, {}, "{}")).bytes();
    expect(wire.sockets).toHaveLength(1);
    expect(wire.received[0]!.split("POST ").length - 1).toBe(5);
  });

  test("a kept-alive connection the upstream drops without answering is replaced once, and the call succeeds", async () => {
    const { url, wire } = rawServer((request, w, socket) => {
      const calls = request.split("POST ").length - 1;
      if (socket.data.index === 0 && calls === 2) {
        socket.end();
        return undefined;
      }
      return ok(`{"n":${w.received.length}}`);
    });
    await (await postUpstream(`${url}/v1/x`, {}, "{}")).bytes();
    const second = await postUpstream(`${url}/v1/x`, {}, "{}");
    expect(await second.text()).toBe('{"n":2}');
    expect(wire.sockets).toHaveLength(2);
  });

  test("a kept-alive connection the upstream closes while idle leaves the pool: the next call opens a new one", async () => {
    const { url, wire } = rawServer(() => ok("{}"));
    await (await postUpstream(`${url}/v1/x`, {}, "{}")).bytes();
    expect(idleCount(url)).toBe(1);
    wire.sockets[0]!.end();
    for (let i = 0; i < 100 && idleCount(url) > 0; i++) await Bun.sleep(10);
    expect(idleCount(url)).toBe(0);
    expect(await (await postUpstream(`${url}/v1/x`, {}, "{}")).text()).toBe("{}");
    expect(wire.sockets).toHaveLength(2);
    expect(wire.received[1]!.split("POST ").length - 1).toBe(1);
  });

  test("a new connection closed before the reply fails the call (it is not sent twice)", async () => {
    const { url, wire } = rawServer((_request, _w, socket) => {
      socket.end();
      return undefined;
    });
    await expect(postUpstream(`${url}/v1/x`, {}, "{}")).rejects.toThrow("closed the connection");
    expect(wire.sockets).toHaveLength(1);
  });

  test("a chunked reply is read chunk by chunk as it is sent", async () => {
    let socketOf: Socket<Conn> | undefined;
    const { url } = rawServer((_request, _w, socket) => {
      socketOf = socket;
      return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n8\r\ndata: 1\n\r\n";
    });
    const reply = await postUpstream(`${url}/v1/x`, {}, "{}");
    const reader = reply.reader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe("data: 1\n");
    socketOf!.write("9\r\ndata: 22\n\r\n0\r\n\r\n");
    expect(Buffer.from((await reader.read()).value!).toString()).toBe("data: 22\n");
    expect((await reader.read()).done).toBe(true);
  });

  describe("a reply let go once its reader has what it wanted ([DONE] before the body's end)", () => {
    const head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    const doneChunk = "e\r\ndata: [DONE]\n\n\r\n";

    test("keeps its connection when the body's end follows: the next call reuses it", async () => {
      let socketOf: Socket<Conn> | undefined;
      const { url, wire } = rawServer((_request, _w, socket) => {
        socketOf = socket;
        return head + doneChunk;
      });
      const reader = (await postUpstream(`${url}/v1/x`, {}, "{}")).reader();
      expect(Buffer.from((await reader.read()).value!).toString()).toBe("data: [DONE]\n\n");
      letGo(reader);
      expect(idleCount(url)).toBe(0);
      await Bun.sleep(50);
      socketOf!.write("0\r\n\r\n");
      for (let i = 0; i < 100 && idleCount(url) === 0; i++) await Bun.sleep(5);
      expect(idleCount(url)).toBe(1);
      await (await postUpstream(`${url}/v1/x`, {}, "{}")).reader().read();
      expect(wire.sockets).toHaveLength(1);
      expect(wire.closed).toEqual([]);
    });

    test("closes its connection when the body does not end within the grace", async () => {
      const { url, wire } = rawServer(() => head + doneChunk);
      const reader = (await postUpstream(`${url}/v1/x`, {}, "{}")).reader();
      await reader.read();
      letGo(reader);
      await Bun.sleep(200);
      expect(wire.closed).toEqual([]);
      for (let i = 0; i < 300 && wire.closed.length === 0; i++) await Bun.sleep(10);
      expect(wire.closed).toEqual([0]);
      expect(idleCount(url)).toBe(0);
    });
  });

  test("a signal that fires before the reply ends the call with its reason", async () => {
    const { url } = rawServer(() => undefined);
    const error = await postUpstream(`${url}/v1/x`, {}, "{}", AbortSignal.timeout(50)).catch((e) => e);
    expect(error.name).toBe("TimeoutError");
  });

  test("a compressed reply (not asked for) is decoded", async () => {
    const body = gzipSync(Buffer.from('{"zipped":true}'));
    const { url } = rawServer((_r, _w, socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body);
      return undefined;
    });
    const reply = await postUpstream(`${url}/v1/x`, {}, "{}");
    expect(await reply.text()).toBe('{"zipped":true}');
    expect(reply.header("content-encoding")).toBeNull();
  });

  test("a header value with a line break is refused before anything is sent", async () => {
    const { url, wire } = rawServer(() => ok("{}"));
    await expect(postUpstream(`${url}/v1/x`, { authorization: "Bearer k\r\nX-Injected: 1" }, "{}")).rejects.toThrow(
      "line break",
    );
    await expect(postUpstream(`${url}/v1/x`, { "x-note": "a\nb" }, "{}")).rejects.toBeInstanceOf(
      UnsendableRequestError,
    );
    expect(wire.sockets).toHaveLength(0);
  });

  test("a reader that does not keep up stops the reading (the upstream waits), and loses nothing", async () => {
    const size = 24 * 1024 * 1024;
    let pendingAtServer = 0;
    const { url, wire } = rawServer((_r, _w, socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${size}\r\n\r\n`);
      pendingAtServer = size - send(socket, Buffer.alloc(size, 120));
      return undefined;
    });
    const reply = await postUpstream(`${url}/v1/x`, {}, "{}");
    await Bun.sleep(200);
    expect(pendingAtServer).toBeGreaterThan(0);
    const heldByServer = wire.sockets[0]!.data.unsent?.length ?? 0;
    expect(heldByServer).toBeGreaterThan(size / 2);
    expect((await readAll(reply.reader())).length).toBe(size);
  });

  describe("over TLS", () => {
    const cert = join(import.meta.dir, "../fixtures/upstream-test-cert.pem");
    const key = join(import.meta.dir, "../fixtures/upstream-test-key.pem");
    const tlsServer = (hostname = "127.0.0.1") => {
      const server = Bun.serve({
        hostname,
        port: 0,
        tls: { cert: Bun.file(cert), key: Bun.file(key) },
        fetch: async (r) => Response.json({ got: await r.text() }),
      });
      servers.push(server);
      return `https://${hostname === "127.0.0.1" ? "localhost" : hostname}:${server.port}`;
    };

    test("an upstream whose certificate is not trusted is refused", async () => {
      await expect(postUpstream(`${tlsServer()}/v1/x`, {}, "{}")).rejects.toThrow();
    });

    test("an upstream with a trusted certificate for its name answers; the same certificate on another address is refused", async () => {
      const trusted = tlsServer();
      const misnamed = tlsServer("127.0.0.2");
      const script = `const { postUpstream } = await import(${JSON.stringify(join(import.meta.dir, "../../src/gateway/upstream/client.ts"))});
        for (const url of ${JSON.stringify([`${trusted}/v1/x`, `${misnamed}/v1/x`])}) {
          try {
            const reply = await postUpstream(url, {}, '{"over":"tls"}');
            console.log(reply.status, await reply.text());
          } catch (error) {
            console.log("refused:", error.message);
          }
        }`;
      const child = Bun.spawn(["bun", "-e", script], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
      await child.exited;
      expect(err).toBe("");
      const [answered, refused] = out.trim().split("\n");
      expect(answered).toBe('200 {"got":"{\\"over\\":\\"tls\\"}"}');
      expect(refused).toContain("refused: the upstream's certificate was refused");
      expect(refused).toContain("127.0.0.2");
    });
  });
});
