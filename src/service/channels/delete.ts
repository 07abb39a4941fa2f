import { channelIdsWithStatus, deleteChannels, existingChannelIds } from "../../db/queries/channels";
import type { Exec } from "../../db/exec";
import type { UserRow } from "../../db/schema";
import { ChannelStatus } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf } from "../input";
import { idListOf } from "./lists";
import { changeChannels } from "./write";

/** Deletes the channels `pick` names, with their abilities; answers how many there were. */
function removeChannels(ctx: ServiceContext, pick: (tx: Exec) => Promise<number[]>): Promise<number> {
  return changeChannels(ctx, async (tx, touched) => {
    const ids = await pick(tx);
    await deleteChannels(tx, ids);
    for (const id of ids) touched.add(id);
    return ids.length;
  });
}

export async function deleteChannel(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<void> {
  requireAdmin(actor);
  const channelId = idOf(id);
  const deleted = await removeChannels(ctx, (tx) => existingChannelIds(tx, [channelId]));
  if (deleted === 0) notFound("channel");
}

/** Ids that name no channel are passed over; answers how many were deleted. */
export function deleteChannelList(ctx: ServiceContext, actor: UserRow, ids: unknown): Promise<number> {
  requireAdmin(actor);
  const list = idListOf(ids, "please select channels to delete first");
  return removeChannels(ctx, (tx) => existingChannelIds(tx, list));
}

/** Manually and automatically disabled channels; answers how many. */
export function deleteDisabledChannels(ctx: ServiceContext, actor: UserRow): Promise<number> {
  requireAdmin(actor);
  return removeChannels(ctx, (tx) =>
    channelIdsWithStatus(tx, [ChannelStatus.ManuallyDisabled, ChannelStatus.AutoDisabled]),
  );
}
