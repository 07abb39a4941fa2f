import type { Socket, SocketHandler } from "bun";
import { isIP } from "node:net";
import { firstReachable, type UpstreamGate } from "../../service/egress/gate";
import { processGate } from "../../service/egress/site-gate";

/** Where requests go: one pool of kept-alive connections per origin. */
export interface Origin {
  key: string;
  hostname: string;
  port: number;
  tls: boolean;
}

/** What a connection's events are passed to while it carries a request. */
export interface ConnectionUser {
  received(chunk: Uint8Array): void;
  closed(): void;
  failed(error: Error): void;
  drained(): void;
}

export interface Link {
  origin: Origin;
  /** The upstream address policy the connection's address was checked under; reused only under the same one. */
  gate: UpstreamGate;
  user: ConnectionUser | null;
  /** Set by a pooled connection's first use again: a close before any reply byte then means the server dropped it while idle. */
  reused: boolean;
  isClosed: boolean;
  idleSince: number;
  /** How long the server keeps an idle connection (its Keep-Alive header), less a margin. */
  idleLimitMs: number;
  ready?: { resolve(socket: Socket<Link>): void; reject(error: Error): void };
}

export type Connection = Socket<Link>;

const IDLE_LIMIT_MS = 15_000;
const CONNECT_TIMEOUT_MS = 30_000;
const IDLE_PER_ORIGIN = 256;
const SWEEP_MS = 5_000;

const idle = new Map<string, Connection[]>();

function forget(socket: Connection): void {
  const list = idle.get(socket.data.origin.key);
  const at = list?.indexOf(socket) ?? -1;
  if (at >= 0) list!.splice(at, 1);
}

const handlers: SocketHandler<Link> = {
  open(socket) {
    if (!socket.data.origin.tls) socket.data.ready?.resolve(socket);
  },
  handshake(socket, success, error) {
    const ready = socket.data.ready;
    if (!ready) return;
    if (success && socket.authorized) return ready.resolve(socket);
    ready.reject(new Error(`the upstream's certificate was refused (${error?.message ?? "not trusted"})`));
    socket.terminate();
  },
  data(socket, chunk) {
    const user = socket.data.user;
    if (user) user.received(chunk);
    else socket.terminate(); // an idle connection has nothing to say
  },
  drain(socket) {
    socket.data.user?.drained();
  },
  close(socket) {
    socket.data.isClosed = true;
    forget(socket);
    socket.data.ready?.reject(new Error("the upstream closed the connection"));
    socket.data.user?.closed();
  },
  error(socket, error) {
    socket.data.ready?.reject(error);
    socket.data.user?.failed(error);
  },
  connectError(socket, error) {
    socket.data.ready?.reject(error);
  },
};

/**
 * Opens a connection to an address `gate` resolved and allowed for the origin's host, the next one while one
 * refuses (TLS with the certificate checked against the trusted roots and the host's name for https); one that
 * is not open (handshake done) within `timeoutMs` is given up.
 */
export async function connect(
  origin: Origin,
  timeoutMs = CONNECT_TIMEOUT_MS,
  gate: UpstreamGate = processGate,
): Promise<Connection> {
  return firstReachable(await gate.addressesOf(origin.hostname), (address) => open(origin, address, gate, timeoutMs));
}

function open(origin: Origin, address: string, gate: UpstreamGate, timeoutMs: number): Promise<Connection> {
  return new Promise<Connection>((resolve, reject) => {
    const link: Link = {
      origin,
      gate,
      user: null,
      reused: false,
      isClosed: false,
      idleSince: 0,
      idleLimitMs: IDLE_LIMIT_MS,
    };
    let opened: Connection | undefined;
    let gaveUp = false;
    const timer = setTimeout(() => {
      gaveUp = true;
      link.ready?.reject(new Error("the upstream did not accept the connection in time"));
      opened?.terminate();
    }, timeoutMs);
    link.ready = {
      resolve: (socket) => {
        link.ready = undefined;
        clearTimeout(timer);
        resolve(socket);
      },
      reject: (error) => {
        link.ready = undefined;
        clearTimeout(timer);
        reject(error);
      },
    };
    const tls = origin.tls ? (isIP(origin.hostname) ? true : { serverName: origin.hostname }) : undefined;
    Bun.connect<Link>({ hostname: address, port: origin.port, tls, data: link, socket: handlers }).then(
      (socket) => {
        opened = socket;
        if (gaveUp) socket.terminate();
      },
      (error) => link.ready?.reject(error),
    );
  });
}

/** A kept-alive connection to the origin opened under `gate`, if one is idle (one opened under another policy is closed). */
export function takeIdle(origin: Origin, gate: UpstreamGate = processGate): Connection | undefined {
  const list = idle.get(origin.key);
  for (let socket = list?.pop(); socket; socket = list!.pop()) {
    if (socket.data.isClosed) continue;
    if (socket.data.gate !== gate) {
      socket.end();
      continue;
    }
    socket.ref();
    socket.data.reused = true;
    return socket;
  }
  return undefined;
}

/** Keeps a connection whose exchange ended cleanly for the next request to the same origin. */
export function keepIdle(socket: Connection, keepAliveHeader: string | null): void {
  const link = socket.data;
  link.user = null;
  if (link.isClosed) return;
  let list = idle.get(link.origin.key);
  if (!list) idle.set(link.origin.key, (list = []));
  if (list.length >= IDLE_PER_ORIGIN) {
    socket.end();
    return;
  }
  const timeout = keepAliveHeader ? /timeout=(\d+)/i.exec(keepAliveHeader) : null;
  link.idleLimitMs = timeout ? Math.max(0, Number(timeout[1]) * 1000 - 1000) : IDLE_LIMIT_MS;
  link.idleSince = Date.now();
  socket.unref();
  list.push(socket);
  sweeper ??= setInterval(sweep, SWEEP_MS);
  (sweeper as unknown as { unref?(): void }).unref?.();
}

let sweeper: ReturnType<typeof setInterval> | undefined;

/** Closes connections idle longer than their server keeps them. */
function sweep(): void {
  const now = Date.now();
  for (const list of idle.values()) {
    for (const socket of [...list]) {
      if (now - socket.data.idleSince >= socket.data.idleLimitMs) {
        forget(socket);
        socket.end();
      }
    }
  }
}

/** Idle connections per origin (for tests and diagnostics). */
export function idleCount(originKey: string): number {
  return idle.get(originKey)?.filter((s) => !s.data.isClosed).length ?? 0;
}
