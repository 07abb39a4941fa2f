import type { Exec } from "../exec";
import type { AbilityRow } from "../schema";

/** Rows per INSERT: well under every dialect's limit of bound parameters (7 per row). */
const CHUNK = 500;

export async function insertAbilities(db: Exec, rows: AbilityRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.k
      .insertInto("abilities")
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}

export async function deleteAbilitiesOf(db: Exec, channelIds: number[]): Promise<void> {
  if (channelIds.length === 0) return;
  await db.k.deleteFrom("abilities").where("channel_id", "in", channelIds).execute();
}

export async function deleteAllAbilities(db: Exec): Promise<void> {
  await db.k.deleteFrom("abilities").execute();
}
