import { pageTokensOf } from "../../db/queries/tokens";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { hashKey, rawKeyOf } from "./key";
import { toTokenView, type TokenView } from "./view";

export interface TokenListQuery {
  /** Part of the name. */
  keyword?: string;
  /** A whole key, with or without "sk-". */
  token?: string;
  page: number;
  pageSize: number;
}

export interface TokenPage {
  items: TokenView[];
  page: number;
  page_size: number;
  total: number;
}

export const WHOLE_KEY_NEEDED =
  "search by key needs the whole key (sk- and 48 characters): keys are stored hashed, so part of a key matches nothing";

/** Keys are stored only as keyed hashes, so a key search is an exact match of a whole key. */
function keyHashOf(ctx: ServiceContext, token: string | undefined): string | undefined {
  if (!token?.trim()) return undefined;
  const raw = rawKeyOf(token) ?? refuse(WHOLE_KEY_NEEDED);
  return hashKey(ctx, raw);
}

/** The owner's live tokens, newest first, optionally filtered by name and by whole key. */
export async function listTokens(ctx: ServiceContext, owner: UserRow, query: TokenListQuery): Promise<TokenPage> {
  const { page, pageSize } = query;
  const { rows, total } = await pageTokensOf(ctx.db, {
    userId: owner.id,
    keyword: query.keyword?.trim() || undefined,
    keyHash: keyHashOf(ctx, query.token),
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const now = nowSeconds();
  return { items: rows.map((row) => toTokenView(row, now)), page, page_size: pageSize, total };
}
