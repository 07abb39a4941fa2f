/**
 * An open-loop, fixed-rate HTTP/1.1 load generator for the relay bench (a small wrk2): request i is due
 * at start + i / rate whatever happened to the earlier ones, and its latency is measured from that due
 * time, so a server that stalls is charged for the requests that queued behind the stall (no coordinated
 * omission). Requests go over a fixed pool of keep-alive sockets, one request in flight per socket; a
 * due request that finds every socket busy waits for one, the wait counting in its latency.
 *
 * Raw sockets rather than fetch: the client's own cost per request stays small and predictable, and the
 * first body byte of a streamed reply is seen as it arrives.
 */

export interface FixedRateOptions {
  /** Origin, e.g. http://127.0.0.1:8080. */
  origin: string;
  /** Complete HTTP/1.1 requests (see `httpRequest`), sent round-robin. */
  requests: Uint8Array[];
  /** Requests per second. */
  rate: number;
  seconds: number;
  /** Keep-alive sockets (default 32). */
  connections?: number;
  /** How long to wait for requests still in flight after the last one is due (default 5 s). */
  drainMs?: number;
}

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface FixedRateResult {
  scheduled: number;
  completed: number;
  non2xx: number;
  /** Connection errors, and requests still unanswered when the drain time ran out. */
  errors: number;
  /** Completed requests per second over the run. */
  achievedRate: number;
  /** From the due time to the last byte of the reply, ms. */
  latency: Percentiles;
  /** From the due time to the first byte of the body, ms. */
  firstByte: Percentiles;
  /**
   * From the due time to the moment the client's timer noticed it was due: the client's own lateness
   * (timer granularity, a busy CPU), included in `latency`; waiting for a free socket is not in it.
   */
  timerLag: Percentiles;
  /** The first non-2xx reply's status and the start of its body, for diagnosis. */
  firstError?: string;
}

const CRLF = Buffer.from("\r\n");
const HEAD_END = Buffer.from("\r\n\r\n");
const EMPTY = Buffer.alloc(0);

/** The bytes of one HTTP/1.1 request with a body (keep-alive is HTTP/1.1's default). */
export function httpRequest(
  origin: string,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Uint8Array {
  const host = new URL(origin).host;
  const payload = Buffer.from(body);
  let head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  head += `Content-Length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), payload]);
}

export function percentiles(values: ArrayLike<number>, count = values.length): Percentiles {
  const sorted = Float64Array.from({ length: count }, (_, i) => values[i]!).sort();
  const at = (q: number) => (count ? sorted[Math.min(count - 1, Math.floor(q * count))]! : NaN);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: count ? sorted[count - 1]! : NaN };
}

enum State {
  Head,
  Length,
  Chunked,
}

interface Conn {
  socket?: Bun.Socket<undefined>;
  busy: boolean;
  due: number;
  firstByteAt: number;
  buf: Buffer;
  state: State;
  status: number;
  remaining: number;
  /** Unwritten tail of the current request. */
  unsent?: Uint8Array;
}

export async function fixedRate(options: FixedRateOptions): Promise<FixedRateResult> {
  const url = new URL(options.origin);
  const hostname = url.hostname;
  const port = Number(url.port || 80);
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const connections = options.connections ?? 32;

  const latency = new Float64Array(total);
  const firstByte = new Float64Array(total);
  const timerLag = new Float64Array(total);
  let completed = 0;
  let non2xx = 0;
  let errors = 0;
  let firstError: string | undefined;

  const idle: Conn[] = [];
  const all = new Set<Conn>();
  /** Due times of requests waiting for a socket, oldest first. */
  const pending: number[] = [];
  let pendingHead = 0;
  let dispatched = 0;
  let next = 0;
  let inFlight = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  let closing = false;

  const send = (conn: Conn, due: number) => {
    const index = dispatched++;
    const bytes = options.requests[index % options.requests.length]!;
    conn.busy = true;
    conn.due = due;
    conn.firstByteAt = 0;
    conn.state = State.Head;
    conn.buf = EMPTY;
    inFlight++;
    const written = conn.socket!.write(bytes);
    if (written < bytes.length) conn.unsent = bytes.subarray(Math.max(0, written));
  };

  const dispatch = () => {
    while (pendingHead < pending.length && idle.length) send(idle.pop()!, pending[pendingHead++]!);
    if (pendingHead > 4096 && pendingHead === pending.length) {
      pending.length = 0;
      pendingHead = 0;
    }
  };

  const complete = (conn: Conn, now: number) => {
    const i = completed++;
    latency[i] = now - conn.due;
    firstByte[i] = (conn.firstByteAt || now) - conn.due;
    if (conn.status < 200 || conn.status >= 300) {
      non2xx++;
      firstError ??= `${conn.status}: ${conn.buf.toString("utf8", 0, 200)}`;
    }
    conn.busy = false;
    inFlight--;
    idle.push(conn);
    dispatch();
    if (next >= total && inFlight === 0 && pendingHead === pending.length) finished();
  };

  /** Consumes what arrived; returns when it needs more bytes. */
  const parse = (conn: Conn, now: number) => {
    for (;;) {
      if (!conn.busy) {
        conn.buf = EMPTY;
        return;
      }
      if (conn.state === State.Head) {
        const end = conn.buf.indexOf(HEAD_END);
        if (end < 0) return;
        const head = conn.buf.toString("latin1", 0, end);
        conn.status = Number(head.slice(9, 12));
        conn.buf = conn.buf.subarray(end + 4);
        if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) conn.state = State.Chunked;
        else {
          conn.state = State.Length;
          conn.remaining = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        }
      }
      if (conn.buf.length && !conn.firstByteAt) conn.firstByteAt = now;
      if (conn.state === State.Length) {
        if (conn.buf.length < conn.remaining) return;
        const body = conn.buf.subarray(0, conn.remaining);
        conn.buf = conn.buf.subarray(conn.remaining);
        const rest = conn.buf;
        conn.buf = body;
        complete(conn, now);
        conn.buf = rest;
        if (!rest.length) return;
        continue;
      }
      // Chunked: size line, data, CRLF; a zero-size chunk (without trailers) ends the body.
      const lineEnd = conn.buf.indexOf(CRLF);
      if (lineEnd < 0) return;
      const size = parseInt(conn.buf.toString("latin1", 0, lineEnd), 16);
      const need = lineEnd + 2 + size + 2;
      if (conn.buf.length < need) return;
      const data = conn.buf.subarray(lineEnd + 2, lineEnd + 2 + size);
      conn.buf = conn.buf.subarray(need);
      if (size === 0) {
        const rest = conn.buf;
        conn.buf = data;
        complete(conn, now);
        conn.buf = rest;
        if (!rest.length) return;
      } else if (conn.status >= 300 && !firstError) {
        firstError = `${conn.status}: ${data.toString("utf8", 0, 200)}`;
      }
    }
  };

  const open = (): Promise<Conn> => {
    const conn: Conn = { busy: false, due: 0, firstByteAt: 0, buf: EMPTY, state: State.Head, status: 0, remaining: 0 };
    all.add(conn);
    return Bun.connect({
      hostname,
      port,
      socket: {
        data(_socket, chunk) {
          const now = performance.now();
          conn.buf = conn.buf.length ? Buffer.concat([conn.buf, chunk]) : chunk;
          parse(conn, now);
        },
        drain(socket) {
          if (!conn.unsent) return;
          const written = socket.write(conn.unsent);
          conn.unsent = written < conn.unsent.length ? conn.unsent.subarray(Math.max(0, written)) : undefined;
        },
        close() {
          all.delete(conn);
          const at = idle.indexOf(conn);
          if (at >= 0) idle.splice(at, 1);
          if (conn.busy) {
            errors++;
            inFlight--;
            conn.busy = false;
          }
          if (!closing)
            open().then(
              (fresh) => (idle.push(fresh), dispatch()),
              () => errors++,
            );
          if (next >= total && inFlight === 0 && pendingHead === pending.length) finished();
        },
        error() {},
      },
    }).then((socket) => {
      conn.socket = socket;
      return conn;
    });
  };

  idle.push(...(await Promise.all(Array.from({ length: connections }, open))));

  const start = performance.now() + 5;
  await new Promise<void>((scheduleDone) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        const due = start + next * interval;
        timerLag[next++] = now - due;
        pending.push(due);
      }
      dispatch();
      if (next >= total) return scheduleDone();
      setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    tick();
  });
  if (inFlight > 0 || pendingHead < pending.length) {
    await Promise.race([allDone, Bun.sleep(options.drainMs ?? 5000)]);
  }
  const elapsed = (performance.now() - start) / 1000;
  errors += inFlight + (pending.length - pendingHead);
  closing = true;
  for (const conn of all) conn.socket?.end();

  return {
    scheduled: total,
    completed,
    non2xx,
    errors,
    achievedRate: completed / elapsed,
    latency: percentiles(latency, completed),
    firstByte: percentiles(firstByte, completed),
    timerLag: percentiles(timerLag, next),
    firstError,
  };
}
