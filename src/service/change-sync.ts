import { RedisClient } from "bun";
import type { Exec } from "../db/exec";
import { readChangeStamps, writeChangeStamp } from "../db/queries/change-stamps";
import { CHANGE_TOPICS, type ChangeBus, type ChangeTopic } from "./changes";
import { randomAlphanumeric } from "./crypto";

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

const CHANNEL = "tollgate:changes";

/**
 * With Redis: changes are published at once and every other process delivers them, with the row id; so are
 * the balances each flush of the balance book wrote, so instances sharing users never spend against a stale one.
 */
export async function syncThroughRedis(url: string, bus: ChangeBus, namespace: string): Promise<ChangeSync> {
  const origin = randomAlphanumeric(16);
  const publisher = new RedisClient(url);
  const subscriber = new RedisClient(url);
  const channel = `${CHANNEL}:${namespace}`;
  await subscriber.subscribe(channel, (message: string) => {
    try {
      const event = JSON.parse(message) as { origin: string; topic: ChangeTopic | "spent"; id?: number; users?: number[]; tokens?: number[] };
      if (event.origin === origin) return;
      if (event.topic === "spent") {
        for (const id of event.users ?? []) bus.deliver("users", id);
        for (const id of event.tokens ?? []) bus.deliver("tokens", id);
      } else if (CHANGE_TOPICS.includes(event.topic)) bus.deliver(event.topic, event.id);
    } catch {}
  });
  const sending = new Outgoing();
  bus.outbox = (topic, id) => {
    sending.track(publisher.publish(channel, JSON.stringify({ origin, topic, id })));
  };
  bus.spentOutbox = (users, tokens) => {
    sending.track(publisher.publish(channel, JSON.stringify({ origin, topic: "spent", users, tokens })));
  };
  return {
    async close() {
      bus.outbox = undefined;
      bus.spentOutbox = undefined;
      await sending.settled();
      subscriber.close();
      publisher.close();
    },
  };
}
