import { findLiveTokenByHash, findOwnToken, updateOwnToken } from "../../db/queries/tokens";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";
import { isRoot } from "../users/admin-access";
import { idOf } from "../input";
import { rawKeyOf, storedFormsOf } from "./key";
import { announce } from "./own";

export const BAD_KEY = "key must be sk- followed by 48 letters and digits";
export const KEY_TAKEN = "that key is already used by another token (perhaps a deleted one)";

/**
 * Gives one of the owner's tokens a key root chose, so declarative provisioning can carry keys between
 * instances (`tollgate apply`). Root only; the old key stops working at once.
 */
export async function setTokenKey(
  ctx: ServiceContext,
  actor: UserRow,
  owner: UserRow,
  id: unknown,
  key: string,
): Promise<void> {
  if (!isRoot(actor)) refuse("Unauthorized, insufficient privileges");
  const raw = rawKeyOf(key) ?? refuse(BAD_KEY);
  const token = (await findOwnToken(ctx.db, owner.id, idOf(id))) ?? notFound("token");
  const forms = storedFormsOf(ctx, raw);
  if (forms.key_hash === token.key_hash) return;
  const holder = await findLiveTokenByHash(ctx.db, forms.key_hash);
  if (holder) refuse(KEY_TAKEN);
  try {
    await updateOwnToken(ctx.db, owner.id, token.id, forms);
  } catch (error) {
    if (/unique|duplicate/i.test(String(error))) refuse(KEY_TAKEN);
    throw error;
  }
  announce(ctx, [token.id]);
}
