import type { Exec } from "../exec";
import type { AbilityRow, ChannelRow } from "../schema";
import { openedChannel } from "./channels";

/** Everything the relay routes by: enabled channels (keys decrypted, held so in memory) and their enabled abilities. */
export async function loadRoutingTable(db: Exec): Promise<{ channels: ChannelRow[]; abilities: AbilityRow[] }> {
  const [channels, abilities] = await Promise.all([
    db.k.selectFrom("channels").selectAll().where("status", "=", 1).execute(),
    db.k.selectFrom("abilities").selectAll().where("enabled", "=", 1).execute(),
  ]);
  return { channels: channels.map((row) => openedChannel(db, row)), abilities };
}
