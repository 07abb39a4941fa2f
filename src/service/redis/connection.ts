import { RedisClient } from "bun";

/** Why a Redis call gave up: the connection is down, or the answer took longer than the command timeout. */
export class RedisUnavailable extends Error {}

/** `work` or, after `ms`, a RedisUnavailable: no caller waits on Redis longer than that. */
export function boundedWait<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailable(`Redis did not answer ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The address of a Redis URL without its password, for messages. */
export const redisAddress = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "6379"}${parsed.pathname.length > 1 ? parsed.pathname : ""}`;
  } catch {
    return "(unparsable REDIS_CONN_STRING)";
  }
};

/**
 * One Redis connection that never queues a command while down (it fails at once instead) and comes back by
 * itself: Bun's client gives up after a few failed reconnects, so a closed connection is reopened every
 * second for as long as the link is open. `onReconnect` runs after each reconnect (pub/sub re-subscribes there).
 */
export class RedisConnection {
  readonly client: RedisClient;
  private closed = false;
  private retry: Timer | undefined;
  onReconnect: (() => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {
    this.client = new RedisClient(url, {
      connectionTimeout: timeoutMs,
      enableOfflineQueue: false,
      autoReconnect: true,
      maxRetries: 5,
    });
    this.client.onclose = () => this.keepTrying();
  }

  /** Connects at start, within the timeout, or throws one clear error. */
  async open(): Promise<this> {
    try {
      await boundedWait(this.client.connect(), this.timeoutMs, "a connection");
    } catch (error) {
      this.close();
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`Redis at ${redisAddress(this.url)} (REDIS_CONN_STRING) is unreachable: ${why}`);
    }
    this.client.onconnect = () => this.onReconnect?.();
    return this;
  }

  private keepTrying(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.closed || this.client.connected) return;
      this.client.connect().catch(() => this.keepTrying());
    }, 1000);
    this.retry.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.client.onclose = null;
    this.client.close();
  }
}

/** The Redis connections of one process: `size` for commands, taken in turn, and one for pub/sub when asked. */
export class RedisLink {
  private turn = 0;

  private constructor(
    private readonly connections: RedisConnection[],
    readonly url: string,
    readonly timeoutMs: number,
    /** Prefix of every key and channel of this deployment (see namespace.ts). */
    readonly prefix: string,
  ) {}

  static async open(url: string, size: number, timeoutMs: number, prefix: string): Promise<RedisLink> {
    const connections = Array.from({ length: size }, () => new RedisConnection(url, timeoutMs));
    try {
      await Promise.all(connections.map((connection) => connection.open()));
    } catch (error) {
      for (const connection of connections) connection.close();
      throw error;
    }
    return new RedisLink(connections, url, timeoutMs, prefix);
  }

  /** A command connection (round robin). */
  get client(): RedisClient {
    this.turn = (this.turn + 1) % this.connections.length;
    return this.connections[this.turn]!.client;
  }

  /** A command's answer within the command timeout; a RedisUnavailable otherwise (also when the link is down). */
  call<T>(work: (client: RedisClient) => Promise<T>, what: string): Promise<T> {
    const client = this.client;
    if (!client.connected) return Promise.reject(new RedisUnavailable(`Redis is down (${what})`));
    return boundedWait(work(client), this.timeoutMs, what);
  }

  /** Whether Redis answers a PING within the command timeout. */
  async reachable(): Promise<boolean> {
    return this.call((client) => client.send("PING", []), "PING").then(
      () => true,
      () => false,
    );
  }

  /** A new connection of its own (for pub/sub), open or throwing like the command ones. */
  openConnection(): Promise<RedisConnection> {
    return new RedisConnection(this.url, this.timeoutMs).open();
  }

  close(): void {
    for (const connection of this.connections) connection.close();
  }
}
