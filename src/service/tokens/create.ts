import { inTransaction } from "../../db/exec";
import { countLiveTokensOf, insertToken } from "../../db/queries/tokens";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { integerOf, type Input } from "../input";
import { nowSeconds } from "../time";
import { mergeFields, NEW_TOKEN_FIELDS } from "./fields";
import { KEY_PREFIX, newRawKey, storedFormsOf } from "./key";
import { announce } from "./own";
import { requireFutureExpiry, requireUsableGroup } from "./rules";
import { TokenStatus } from "./status";

export const MAX_TOKENS_PER_USER = 1000;
export const BATCH_MAX = 100;
export const TOKEN_LIMIT_REACHED = `the maximum number of tokens (${MAX_TOKENS_PER_USER}) has been reached`;

/** The new tokens' ids and whole keys, in the same order; the keys are shown this once. */
export interface CreatedTokens {
  ids: number[];
  keys: string[];
}

function countOf(input: Input): number {
  if (input.count === undefined || input.count === null) return 1;
  const count = integerOf(input.count, "count");
  return count >= 1 && count <= BATCH_MAX ? count : refuse(`count must be between 1 and ${BATCH_MAX}`);
}

function refuseOverLimit(existing: number, adding: number): void {
  const room = MAX_TOKENS_PER_USER - existing;
  if (room <= 0) refuse(TOKEN_LIMIT_REACHED);
  if (adding > room)
    refuse(`that would pass the maximum number of tokens (${MAX_TOKENS_PER_USER}): ${room} more can be created`);
}

/**
 * One token, or `count` (1 to 100) alike: the first gets the name, each further one the name plus
 * "-" and a random 6-character suffix.
 */
export async function createTokens(ctx: ServiceContext, owner: UserRow, input: Input): Promise<CreatedTokens> {
  const now = nowSeconds();
  const fields = mergeFields(input, NEW_TOKEN_FIELDS);
  const count = countOf(input);
  requireUsableGroup(ctx, owner, fields.group);
  requireFutureExpiry(fields.expired_time, now);
  const rawKeys = Array.from({ length: count }, newRawKey);
  const ids = await inTransaction(ctx.db, async (tx) => {
    refuseOverLimit(await countLiveTokensOf(tx, owner.id), count);
    const created: number[] = [];
    for (const [i, raw] of rawKeys.entries()) {
      const name = i === 0 ? fields.name : `${fields.name}-${randomAlphanumeric(6)}`;
      const row = {
        ...fields,
        ...storedFormsOf(ctx, raw),
        name,
        user_id: owner.id,
        status: TokenStatus.Enabled,
        created_time: now,
      };
      created.push(await insertToken(tx, row));
    }
    return created;
  });
  announce(ctx, ids);
  return { ids, keys: rawKeys.map((raw) => KEY_PREFIX + raw) };
}
