import { sealedKeysOf } from "../../db/queries/tokens";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import type { Input } from "../input";
import { KEY_PREFIX } from "./key";
import { idListOf, ownToken } from "./own";
import { unseal } from "./seal";

function opened(ctx: ServiceContext, sealed: string): string {
  const raw = unseal(ctx.secret, sealed);
  return raw === undefined
    ? refuse("the key cannot be shown: the server secret changed after it was created")
    : KEY_PREFIX + raw;
}

/** The whole key of one of the owner's tokens. */
export async function revealKey(ctx: ServiceContext, owner: UserRow, id: unknown): Promise<string> {
  return opened(ctx, (await ownToken(ctx, owner, id)).key_sealed);
}

/** Whole keys by token id, for those of `ids` (at most 100) the owner has. */
export async function revealKeys(ctx: ServiceContext, owner: UserRow, input: Input): Promise<Record<string, string>> {
  const rows = await sealedKeysOf(ctx.db, owner.id, idListOf(input));
  return Object.fromEntries(rows.map((row) => [String(row.id), opened(ctx, row.key_sealed)]));
}
