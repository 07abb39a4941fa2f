import type { Exec } from "../exec";
import { upsert } from "./key-value";

export async function hasSetupRow(db: Exec): Promise<boolean> {
  const row = await db.k.selectFrom("setups").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertSetupRow(db: Exec, version: string, now: number): Promise<void> {
  await db.k.insertInto("setups").values({ version, initialized_at: now }).execute();
}

/**
 * Takes the setup lock for the rest of the transaction: writing one fixed row locks it, so concurrent
 * root creations (other connections or instances) wait here and then see the first one's result.
 * Call it first in the transaction, before any read.
 */
export async function lockSetup(tx: Exec): Promise<void> {
  await upsert(tx, "internals", "setup_lock", "1");
}
