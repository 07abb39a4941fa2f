import { updateChannels } from "../../db/queries/channels";
import { inTransaction, type Exec } from "../../db/exec";
import type { ChannelPatch } from "../../db/schema";
import type { ServiceContext } from "../context";
import { rewriteAbilities } from "./abilities";

/**
 * Every channel write goes through here: `work` writes channels in a transaction and adds the ids it
 * wrote (created, changed or deleted) to `touched`; their abilities are rewritten from the stored rows in
 * the same transaction, and after the commit the relay's channel index is told.
 */
export async function changeChannels<T>(
  ctx: ServiceContext,
  work: (tx: Exec, touched: Set<number>) => Promise<T>,
): Promise<T> {
  const touched = new Set<number>();
  const result = await inTransaction(ctx.db, async (tx) => {
    const value = await work(tx, touched);
    await rewriteAbilities(tx, [...touched]);
    return value;
  });
  if (touched.size > 0) ctx.changes.emit("channels", touched.size === 1 ? [...touched][0] : undefined);
  return result;
}

/** Applies `patch` to the channels `pick` names; answers their ids. */
export function patchChannels(
  ctx: ServiceContext,
  pick: (tx: Exec) => Promise<number[]>,
  patch: ChannelPatch,
): Promise<number[]> {
  return changeChannels(ctx, async (tx, touched) => {
    const ids = await pick(tx);
    await updateChannels(tx, ids, patch);
    for (const id of ids) touched.add(id);
    return ids;
  });
}
