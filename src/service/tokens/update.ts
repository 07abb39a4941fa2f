import { inTransaction } from "../../db/exec";
import { findOwnToken, updateOwnToken } from "../../db/queries/tokens";
import type { TokenPatch, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";
import { idOf, integerOf, type Input } from "../input";
import { nowSeconds } from "../time";
import { fieldsOf, mergeFields } from "./fields";
import { announce } from "./own";
import { requireEnableable, requireUsableGroup } from "./rules";
import { TokenStatus } from "./status";
import { toTokenView, type TokenView } from "./view";

/** Only enabling and disabling are the owner's to choose; expiry and exhaustion follow from the token. */
function statusOf(value: unknown): number {
  const status = integerOf(value, "status");
  if (status === TokenStatus.Enabled || status === TokenStatus.Disabled) return status;
  return refuse("status must be 1 (enabled) or 2 (disabled)");
}

/**
 * Changes one of the owner's tokens. Full (default): the fields the body sets, each checked as on create;
 * a group is checked only when it changes, and an earlier expiry is allowed (it ends the token).
 * Status only: enables or disables; enabling an expired or exhausted token is refused.
 */
export async function updateToken(
  ctx: ServiceContext,
  owner: UserRow,
  input: Input,
  statusOnly: boolean,
): Promise<TokenView> {
  const id = idOf(input.id);
  const now = nowSeconds();
  const updated = await inTransaction(ctx.db, async (tx) => {
    const token = (await findOwnToken(tx, owner.id, id)) ?? notFound("token");
    let patch: TokenPatch;
    if (statusOnly) {
      patch = { status: statusOf(input.status) };
      if (patch.status === TokenStatus.Enabled) requireEnableable(token, now);
    } else {
      patch = mergeFields(input, fieldsOf(token));
      if (patch.group !== token.group) requireUsableGroup(ctx, owner, patch.group!);
    }
    await updateOwnToken(tx, owner.id, id, patch);
    return { ...token, ...patch };
  });
  announce(ctx, [id]);
  return toTokenView(updated, now);
}
