import type { Exec } from "../exec";
import { upsert } from "./key-value";

const PREFIX = "change:";

/** Marks a topic as changed: a fresh stamp other processes notice when they poll. */
export const writeChangeStamp = (db: Exec, topic: string, stamp: string) =>
  upsert(db, "internals", PREFIX + topic, stamp);

export async function readChangeStamps(db: Exec): Promise<Map<string, string>> {
  const rows = await db.k.selectFrom("internals").select(["key", "value"]).where("key", "like", `${PREFIX}%`).execute();
  return new Map(rows.map((r) => [r.key.slice(PREFIX.length), r.value]));
}
