import { deleteAbilitiesOf, insertAbilities } from "../../db/queries/abilities";
import { findChannels } from "../../db/queries/channels";
import type { Exec } from "../../db/exec";
import type { AbilityRow, ChannelRow } from "../../db/schema";
import { ChannelStatus } from "../../shared/channel-types";
import { splitList } from "./lists";

/** One row per group × model the channel serves; `enabled` mirrors the channel's status. */
export function abilitiesOf(channel: ChannelRow): AbilityRow[] {
  const rows: AbilityRow[] = [];
  for (const group of new Set(splitList(channel.group))) {
    for (const model of new Set(splitList(channel.models))) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: channel.status === ChannelStatus.Enabled ? 1 : 0,
        priority: channel.priority,
        weight: channel.weight,
        tag: channel.tag,
      });
    }
  }
  return rows;
}

/** Replaces the abilities of these channels by what the stored channels say (none for deleted ones). */
export async function rewriteAbilities(tx: Exec, channelIds: number[]): Promise<number> {
  await deleteAbilitiesOf(tx, channelIds);
  const rows = (await findChannels(tx, channelIds)).flatMap(abilitiesOf);
  await insertAbilities(tx, rows);
  return rows.length;
}
