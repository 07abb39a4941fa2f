import { inTransaction } from "../../db/exec";
import { updateLiveUserOfRole } from "../../db/queries/users";
import type { UserPatch, UserRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import { quotaText } from "../quota-text";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { recordBalanceChange } from "../ledger";

/** What an administrator's edit or action does to one user, after every rule has been checked. */
export interface UserChange {
  patch: UserPatch;
  quotaDelta?: number;
  /** Revoke every session (the patch clears the access token itself). */
  signOut?: boolean;
}

export const CHANGED_MEANWHILE = "the user was changed meanwhile, please reload and try again";

const changedFields = (row: UserRow, patch: UserPatch): UserPatch =>
  Object.fromEntries(Object.entries(patch).filter(([key, value]) => row[key as keyof UserRow] !== value));

/**
 * Applies a checked change only if the user is still live and of the role the checks saw, so a concurrent
 * delete or promotion cannot be overtaken. A quota change is added, not overwritten, and logged with it.
 */
export async function applyChange(
  ctx: ServiceContext,
  actor: UserRow,
  target: UserRow,
  change: UserChange,
): Promise<void> {
  const patch = changedFields(target, change.patch);
  const delta = change.quotaDelta ?? 0;
  const quota = target.quota + delta;
  if (delta !== 0 && quota < 0) refuse("quota cannot be negative");
  if (Object.keys(patch).length > 0 || delta !== 0) {
    await inTransaction(ctx.db, async (tx) => {
      if (!(await updateLiveUserOfRole(tx, target.id, target.role, patch, delta))) refuse(CHANGED_MEANWHILE);
      if (delta === 0) return;
      await recordBalanceChange(tx, {
        userId: target.id,
        username: patch.username ?? target.username,
        type: LogType.Manage,
        quota: delta,
        content: `administrator ${actor.username} changed the quota from ${quotaText(ctx, target.quota)} to ${quotaText(ctx, quota)}`,
      });
    });
    ctx.users.forget(target.id);
  }
  if (change.signOut) await ctx.sessions.revokeAllOf(target.id);
}
