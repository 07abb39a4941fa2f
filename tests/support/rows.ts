import type { Tables, UserPatch } from "../../src/db/schema";
import type { ServiceContext } from "../../src/service/context";

/** Direct reads of the database, for asserting what a call stored (or did not). */
export const userRow = (ctx: ServiceContext, id: number) =>
  ctx.db.k.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

export async function countRows(ctx: ServiceContext, table: keyof Tables): Promise<number> {
  const row = await ctx.db.k
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const logsOf = (ctx: ServiceContext, userId: number) =>
  ctx.db.k.selectFrom("logs").selectAll().where("user_id", "=", userId).orderBy("id").execute();

/** Changes a user row behind the service's back (test setup), dropping the server's cached copy of it. */
export async function setUserFields(ctx: ServiceContext, id: number, patch: UserPatch): Promise<void> {
  await ctx.db.k.updateTable("users").set(patch).where("id", "=", id).execute();
  ctx.users.forget(id);
}
