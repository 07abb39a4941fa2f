import { insertRedemptions } from "../../db/queries/redemptions";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { integerOf, type Input } from "../input";
import { mergeFields, NEW_CODE_FIELDS } from "./fields";
import { newRedemptionKey } from "./key";
import { RedemptionStatus } from "./status";

export const BATCH_MAX = 100;

function countOf(value: unknown): number {
  if (value === undefined || value === null) return 1;
  const count = integerOf(value, "count");
  return count >= 1 && count <= BATCH_MAX ? count : refuse(`count must be between 1 and ${BATCH_MAX}`);
}

/** `count` (1 to 100, default 1) unused codes alike; answers their keys. */
export async function createRedemptions(ctx: ServiceContext, actor: UserRow, input: Input): Promise<string[]> {
  requireAdmin(actor);
  const now = nowSeconds();
  const fields = mergeFields(ctx, input, NEW_CODE_FIELDS, now);
  const keys = Array.from({ length: countOf(input.count) }, newRedemptionKey);
  const rows = keys.map((key) => ({
    ...fields,
    key,
    user_id: actor.id,
    status: RedemptionStatus.Unused,
    created_time: now,
  }));
  await insertRedemptions(ctx.db, rows);
  return keys;
}
