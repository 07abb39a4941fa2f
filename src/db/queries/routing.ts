import type { Exec } from "../exec";
import type { AbilityRow, ChannelRow } from "../schema";

/** Everything the relay routes by: enabled channels and their enabled abilities. */
export async function loadRoutingTable(db: Exec): Promise<{ channels: ChannelRow[]; abilities: AbilityRow[] }> {
  const [channels, abilities] = await Promise.all([
    db.k.selectFrom("channels").selectAll().where("status", "=", 1).execute(),
    db.k.selectFrom("abilities").selectAll().where("enabled", "=", 1).execute(),
  ]);
  return { channels, abilities };
}
