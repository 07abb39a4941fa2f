import type { ServiceContext } from "../../src/service/context";

let names = 0;

/** A user with `quota`, written straight to the database (balance tests). */
export async function newUser(ctx: ServiceContext, quota: number): Promise<number> {
  const username = `payer-${++names}-${Math.random().toString(36).slice(2, 6)}`;
  await ctx.db.k
    .insertInto("users")
    .values({
      username,
      password: "x",
      aff_code: `a-${username}`,
      created_at: 1,
      email: null,
      access_token_hash: null,
      deleted_at: null,
      quota,
    })
    .execute();
  return (await ctx.db.k.selectFrom("users").select("id").where("username", "=", username).executeTakeFirstOrThrow())
    .id;
}

/** A limited token of the user with `remain`, written straight to the database. */
export async function newToken(
  ctx: ServiceContext,
  userId: number,
  remain: number,
): Promise<{ id: number; unlimited: boolean }> {
  const hash = `h-${++names}`;
  await ctx.db.k
    .insertInto("tokens")
    .values({
      user_id: userId,
      key_hash: hash,
      key_sealed: "",
      key_masked: "",
      name: "t",
      created_time: 1,
      remain_quota: remain,
      deleted_at: null,
    })
    .execute();
  return {
    id: (await ctx.db.k.selectFrom("tokens").select("id").where("key_hash", "=", hash).executeTakeFirstOrThrow()).id,
    unlimited: false,
  };
}
