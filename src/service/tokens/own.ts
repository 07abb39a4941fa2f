import { findOwnToken } from "../../db/queries/tokens";
import type { TokenRow, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";
import { idOf, type Input } from "../input";

/** One of the owner's live tokens; someone else's answers exactly like a token that does not exist. */
export async function ownToken(ctx: ServiceContext, owner: UserRow, id: unknown): Promise<TokenRow> {
  return (await findOwnToken(ctx.db, owner.id, idOf(id))) ?? notFound("token");
}

export const IDS_MAX = 100;

/** `ids` of a batch call: 1 to 100 positive integers, repeats dropped. */
export function idListOf(input: Input): number[] {
  const ids = input.ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > IDS_MAX)
    refuse(`ids must list 1 to ${IDS_MAX} token ids`);
  return [...new Set((ids as unknown[]).map(idOf))];
}

/** Drops each changed token from in-memory caches; call after the change commits. */
export function announce(ctx: ServiceContext, ids: Iterable<number>): void {
  for (const id of ids) ctx.changes.emit("tokens", id);
}
