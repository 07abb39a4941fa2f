import { inTransaction } from "../../db/exec";
import { ownLiveTokenIds, softDeleteOwnTokens } from "../../db/queries/tokens";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { idOf, type Input } from "../input";
import { nowSeconds } from "../time";
import { announce, idListOf } from "./own";

async function deleteOwn(ctx: ServiceContext, owner: UserRow, ids: number[]): Promise<number[]> {
  const deleted = await inTransaction(ctx.db, async (tx) => {
    const own = await ownLiveTokenIds(tx, owner.id, ids);
    if (own.length > 0) await softDeleteOwnTokens(tx, owner.id, own, nowSeconds());
    return own;
  });
  announce(ctx, deleted);
  return deleted;
}

/** Soft-deletes one of the owner's tokens; its key stops working at once. */
export async function deleteToken(ctx: ServiceContext, owner: UserRow, id: unknown): Promise<void> {
  const deleted = await deleteOwn(ctx, owner, [idOf(id)]);
  if (deleted.length === 0) notFound("token");
}

/** Soft-deletes those of `ids` the owner has; answers how many. Others' ids are passed over silently. */
export async function deleteTokens(ctx: ServiceContext, owner: UserRow, input: Input): Promise<number> {
  return (await deleteOwn(ctx, owner, idListOf(input))).length;
}
