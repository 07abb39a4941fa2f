import type { Exec } from "../exec";

/** Channel keys stored without the given prefix (written before encryption at rest), raw as stored. */
export async function channelKeysWithout(db: Exec, prefix: string): Promise<{ id: number; key: string }[]> {
  return db.k.selectFrom("channels").select(["id", "key"]).where("key", "not like", `${prefix}%`).execute();
}

/** Writes a channel key exactly as given (already sealed). */
export async function storeChannelKey(db: Exec, id: number, stored: string): Promise<void> {
  await db.k.updateTable("channels").set({ key: stored }).where("id", "=", id).execute();
}

export async function allTokenSeals(db: Exec): Promise<{ id: number; key_sealed: string }[]> {
  return db.k.selectFrom("tokens").select(["id", "key_sealed"]).execute();
}

export async function storeTokenKeyForms(
  db: Exec,
  id: number,
  forms: { key_hash: string; key_sealed: string },
): Promise<void> {
  await db.k.updateTable("tokens").set(forms).where("id", "=", id).execute();
}
