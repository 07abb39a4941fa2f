import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { nowSeconds } from "../time";
import { ownToken } from "./own";
import { toTokenView, type TokenView } from "./view";

export async function getToken(ctx: ServiceContext, owner: UserRow, id: unknown): Promise<TokenView> {
  return toTokenView(await ownToken(ctx, owner, id), nowSeconds());
}
