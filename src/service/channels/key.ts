import { findChannel } from "../../db/queries/channels";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";
import { isRoot } from "../users/admin-access";
import { idOf } from "../input";

/** The stored key, for root only: every other reply leaves it out. */
export async function revealChannelKey(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<{ key: string }> {
  if (!isRoot(actor)) refuse("Unauthorized, insufficient privileges");
  const channel = (await findChannel(ctx.db, idOf(id))) ?? notFound("channel");
  return { key: channel.key };
}
