import { findLiveTokenByHash } from "../../db/queries/tokens";
import type { TokenRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { hashKey, isRawKey } from "./key";

/**
 * For the relay: the live (not deleted) token of a key given without "sk-" (and without a "-<channel>" pin),
 * whatever its status; anything that is not a well-formed key answers undefined without touching the database.
 */
export async function findTokenByKey(ctx: ServiceContext, rawKey: string): Promise<TokenRow | undefined> {
  if (!isRawKey(rawKey)) return undefined;
  return findLiveTokenByHash(ctx.db, hashKey(ctx, rawKey));
}
