import { findChannel } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { requireAdmin } from "../users/admin-access";
import { idOf, withinLength } from "../input";
import { insertChannels } from "./create";
import type { ChannelView } from "./view";

export interface CopyOptions {
  /** Appended to the name; "_copy" unless given. */
  suffix?: string;
  /** Start the copy with no balance and no used quota; true unless false is given. */
  resetBalance?: boolean;
}

/** A new channel with the source's fields and key, a new id, creation time and untested response time. */
export async function copyChannel(
  ctx: ServiceContext,
  actor: UserRow,
  id: unknown,
  options: CopyOptions = {},
): Promise<ChannelView> {
  requireAdmin(actor);
  const { id: _source, ...source } = (await findChannel(ctx.db, idOf(id))) ?? notFound("channel");
  const name = withinLength(source.name + (options.suffix ?? "_copy"), 128, "name");
  const reset = options.resetBalance === false ? {} : { balance: 0, balance_updated_time: 0, used_quota: 0 };
  const [copy] = await insertChannels(ctx, [{ ...source, ...reset, name, test_time: 0, response_time: 0 }]);
  return copy!;
}
