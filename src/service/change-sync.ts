import type { Exec } from "../db/exec";
import { readChangeStamps, writeChangeStamp } from "../db/queries/change-stamps";
import { CHANGE_TOPICS, type Amounts, type ChangeBus, type ChangeTopic, type LeaseSide } from "./changes";
import { randomAlphanumeric } from "./crypto";
import type { RedisLink } from "./redis/connection";
import { redisChannel } from "./redis/namespace";

export interface ChangeSync {
  close(): Promise<void>;
}

/**
 * Announcements not yet sent. They are not awaited where a change is made, but close() waits for them, so a
 * short-lived process (a CLI command) cannot exit, or close the database, before other processes are told.
 */
class Outgoing {
  private readonly pending = new Set<Promise<unknown>>();

  track(sent: Promise<unknown>): void {
    const done: Promise<unknown> = sent.catch(() => {}).finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  settled(): Promise<unknown> {
    return Promise.all(this.pending);
  }
}

/**
 * Without Redis: each process stamps a changed topic in the database and polls the stamps every
 * `pollMs`; a stamp it did not write means another process (the CLI, another instance) changed that
 * topic, and local caches of it are dropped.
 */
export async function syncThroughDatabase(db: Exec, bus: ChangeBus, pollMs = 500): Promise<ChangeSync> {
  const own = new Set<string>();
  const sending = new Outgoing();
  let seen = await readChangeStamps(db);
  bus.outbox = (topic) => {
    const stamp = randomAlphanumeric(16);
    if (own.size > 1000) own.clear();
    own.add(stamp);
    sending.track(writeChangeStamp(db, topic, stamp));
  };
  const timer = setInterval(async () => {
    try {
      const now = await readChangeStamps(db);
      for (const topic of CHANGE_TOPICS) {
        const stamp = now.get(topic);
        if (stamp === undefined || stamp === seen.get(topic)) continue;
        if (own.has(stamp)) own.delete(stamp);
        else bus.deliver(topic);
      }
      seen = now;
    } catch {}
  }, pollMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      bus.outbox = undefined;
      await sending.settled();
    },
  };
}

type Message =
  | { origin: string; topic: ChangeTopic; id?: number }
  | { origin: string; topic: "spent"; users?: number[]; tokens?: number[]; seq?: number }
  | { origin: string; topic: "settled"; seq: number; users: [number, number][]; tokens: [number, number][] }
  | { origin: string; topic: "lease-wanted"; side: LeaseSide; id: number };

/** The (id, amount) pairs of a message as a map; malformed pairs and amounts that are not positive are left out. */
function amounts(pairs: unknown): Amounts {
  const map: Amounts = new Map();
  if (!Array.isArray(pairs)) return map;
  for (const pair of pairs) {
    if (Array.isArray(pair) && Number.isSafeInteger(pair[0]) && Number.isSafeInteger(pair[1]) && pair[1] > 0)
      map.set(pair[0], pair[1]);
  }
  return map;
}

/** The ids of a message's list; anything else is left out. */
function ids(list: unknown): number[] {
  return Array.isArray(list) ? list.filter((id): id is number => Number.isSafeInteger(id)) : [];
}

/**
 * With Redis: changes are published at once and every other process delivers them, with the row id; so are
 * the charges each process settles (at the end of each turn) and the balances each flush of the balance book
 * wrote, so instances sharing users never spend against a stale balance nor another instance's unwritten charges;
 * and an instance whose lease on a balance falls short asks the others for the spare of theirs. Redis forgets a
 * subscription when its connection drops: after a reconnect this process subscribes again and drops every cache,
 * since changes announced meanwhile were not heard.
 */
export async function syncThroughRedis(redis: RedisLink, bus: ChangeBus): Promise<ChangeSync> {
  const origin = randomAlphanumeric(16);
  const subscriber = await redis.openConnection();
  const channel = redisChannel(redis.prefix, redis.url, "changes");
  // Every message this process publishes comes back to it; JSON.stringify writes `origin` first, so they are
  // known without parsing.
  const own = `{"origin":${JSON.stringify(origin)},`;
  const listen = (text: string) => {
    if (text.startsWith(own)) return;
    try {
      const message = JSON.parse(text) as Message;
      if (message.origin === origin || typeof message.origin !== "string") return;
      if (message.topic === "settled") {
        if (Number.isSafeInteger(message.seq))
          bus.deliverSettled(message.origin, message.seq, amounts(message.users), amounts(message.tokens));
      } else if (message.topic === "spent") {
        const seq = Number.isSafeInteger(message.seq) && message.seq! > 0 ? message.seq! : 0;
        bus.deliverWritten(message.origin, seq, ids(message.users), ids(message.tokens));
      } else if (message.topic === "lease-wanted") {
        if ((message.side === "users" || message.side === "tokens") && Number.isSafeInteger(message.id))
          bus.deliverLeaseWanted(message.side, message.id);
      } else if (CHANGE_TOPICS.includes(message.topic)) bus.deliver(message.topic, message.id);
    } catch {}
  };
  await subscriber.client.subscribe(channel, listen);
  subscriber.onReconnect = () => {
    subscriber.client.subscribe(channel, listen).catch(() => {});
    for (const topic of CHANGE_TOPICS) bus.deliver(topic);
  };
  const sending = new Outgoing();
  const publish = (message: Message) =>
    sending.track(redis.call((client) => client.publish(channel, JSON.stringify(message)), "a change"));
  bus.outbox = (topic, id) => publish({ origin, topic, id });
  bus.settledOutbox = (seq, users, tokens) =>
    publish({ origin, topic: "settled", seq, users: [...users], tokens: [...tokens] });
  bus.spentOutbox = (users, tokens, seq) => publish({ origin, topic: "spent", users, tokens, seq });
  bus.leaseWantedOutbox = (side, id) => publish({ origin, topic: "lease-wanted", side, id });
  return {
    async close() {
      bus.outbox = undefined;
      bus.settledOutbox = undefined;
      bus.spentOutbox = undefined;
      bus.leaseWantedOutbox = undefined;
      await sending.settled();
      subscriber.close();
    },
  };
}
