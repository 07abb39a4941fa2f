import type { Exec } from "../exec";
import { affected, insertReturningId } from "../exec";
import { runPrepared } from "../prepared";
import { containsText } from "./like";
import type { NewUserRow, UserPatch, UserRow } from "../schema";

export async function findUserById(db: Exec, id: number): Promise<UserRow | undefined> {
  const build = (k: Exec["k"]) => k.selectFrom("users").selectAll().where("id", "=", 0);
  const rows = await runPrepared<UserRow>(db, "user-by-id", build, [id]);
  return rows[0];
}

/** A live (not deleted) user by username or email. */
export async function findLiveUserByLogin(db: Exec, login: string): Promise<UserRow | undefined> {
  return db.k
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb.or([eb("username", "=", login), eb("email", "=", login)]))
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirst();
}

export async function findLiveUserByAccessToken(db: Exec, tokenHash: string): Promise<UserRow | undefined> {
  return db.k
    .selectFrom("users")
    .selectAll()
    .where("access_token_hash", "=", tokenHash)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export async function findLiveUserByAffCode(db: Exec, affCode: string): Promise<UserRow | undefined> {
  return db.k
    .selectFrom("users")
    .selectAll()
    .where("aff_code", "=", affCode)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Soft-deleted names stay taken. */
export async function isUsernameTaken(db: Exec, username: string): Promise<boolean> {
  const row = await db.k.selectFrom("users").select("id").where("username", "=", username).executeTakeFirst();
  return row !== undefined;
}

/** Whether a user other than `exceptUserId` holds this value in a unique column (soft-deleted users included). */
async function isTakenByAnother(
  db: Exec,
  column: "username_key",
  value: string,
  exceptUserId: number,
): Promise<boolean> {
  const row = await db.k
    .selectFrom("users")
    .select("id")
    .where(column, "=", value)
    .where("id", "!=", exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether another user's name looks like one with this key. */
export const isUsernameKeyTaken = (db: Exec, key: string, exceptUserId = 0): Promise<boolean> =>
  isTakenByAnother(db, "username_key", key, exceptUserId);

/** Users whose look-alike key is not filled in yet (rows from before it existed), oldest first. */
export async function usersWithoutUsernameKey(db: Exec): Promise<{ id: number; username: string }[]> {
  return db.k.selectFrom("users").select(["id", "username"]).where("username_key", "is", null).orderBy("id").execute();
}

export async function setUsernameKey(db: Exec, id: number, key: string): Promise<void> {
  await db.k.updateTable("users").set({ username_key: key }).where("id", "=", id).execute();
}

/** Whether another user (soft-deleted ones included) has this address, in any letter case. */
export async function isEmailTaken(db: Exec, email: string, exceptUserId = 0): Promise<boolean> {
  const row = await db.k
    .selectFrom("users")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .where("id", "!=", exceptUserId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isAffCodeTaken(db: Exec, affCode: string): Promise<boolean> {
  const row = await db.k.selectFrom("users").select("id").where("aff_code", "=", affCode).executeTakeFirst();
  return row !== undefined;
}

export async function hasLiveRoot(db: Exec, rootRole: number): Promise<boolean> {
  const row = await db.k
    .selectFrom("users")
    .select("id")
    .where("role", ">=", rootRole)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The live user of at least `rootRole` with the lowest id (the CLI acts as this one). */
export function findFirstLiveRoot(db: Exec, rootRole: number): Promise<UserRow | undefined> {
  return db.k
    .selectFrom("users")
    .selectAll()
    .where("role", ">=", rootRole)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .executeTakeFirst();
}

export const insertUser = (db: Exec, row: NewUserRow): Promise<number> => insertReturningId(db, "users", row);

export async function updateUser(db: Exec, id: number, patch: UserPatch): Promise<number> {
  return affected(await db.k.updateTable("users").set(patch).where("id", "=", id).executeTakeFirst());
}

/** Adds (or, negative, removes) quota in one statement, so concurrent changes never overwrite each other. */
export async function addUserQuota(db: Exec, id: number, delta: number): Promise<void> {
  await db.k
    .updateTable("users")
    .set((eb) => ({ quota: eb("quota", "+", delta) }))
    .where("id", "=", id)
    .execute();
}

/** Moves affiliate earnings into the balance only when they cover the amount; answers whether it did. */
export async function moveAffQuotaToQuota(db: Exec, id: number, amount: number): Promise<boolean> {
  const result = await db.k
    .updateTable("users")
    .set((eb) => ({ aff_quota: eb("aff_quota", "-", amount), quota: eb("quota", "+", amount) }))
    .where("id", "=", id)
    .where("aff_quota", ">=", amount)
    .executeTakeFirst();
  return affected(result) === 1;
}

export async function creditInviter(db: Exec, id: number, reward: number): Promise<void> {
  await db.k
    .updateTable("users")
    .set((eb) => ({
      aff_count: eb("aff_count", "+", 1),
      aff_quota: eb("aff_quota", "+", reward),
      aff_history_quota: eb("aff_history_quota", "+", reward),
    }))
    .where("id", "=", id)
    .execute();
}

export interface UserQuery {
  keyword?: string;
  group?: string;
  offset: number;
  limit: number;
}

/** A page of users (deleted ones included, newest first) and the total that match. */
export async function pageUsers(db: Exec, query: UserQuery): Promise<{ rows: UserRow[]; total: number }> {
  let base = db.k.selectFrom("users");
  const keyword = query.keyword?.trim();
  if (keyword) {
    const asId = /^\d+$/.test(keyword) ? Number(keyword) : -1;
    base = base.where((eb) =>
      eb.or([
        eb("id", "=", asId),
        containsText("username", keyword),
        containsText("display_name", keyword),
        containsText("email", keyword),
      ]),
    );
  }
  if (query.group) base = base.where("group", "=", query.group);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy("id", "desc").limit(query.limit).offset(query.offset).execute(),
    base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/**
 * Changes a live user still holding `role`, adding `quotaDelta` in the same statement; answers whether it did.
 * Only the fields that differ should be passed: MySQL counts unchanged rows as not affected.
 */
export async function updateLiveUserOfRole(
  db: Exec,
  id: number,
  role: number,
  patch: UserPatch,
  quotaDelta = 0,
): Promise<boolean> {
  const result = await db.k
    .updateTable("users")
    .set((eb) => (quotaDelta === 0 ? patch : { ...patch, quota: eb("quota", "+", quotaDelta) }))
    .where("id", "=", id)
    .where("role", "=", role)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return affected(result) === 1;
}

/** The columns that bind a user to an account elsewhere. */
export type ExternalIdColumn = "github_id" | "linux_do_id" | "oidc_id" | "wechat_id" | "telegram_id";

/** The user (deleted ones included: their bindings stay taken) bound to this account elsewhere. */
export async function findUserByExternalId(
  db: Exec,
  column: ExternalIdColumn,
  externalId: string,
): Promise<UserRow | undefined> {
  return db.k.selectFrom("users").selectAll().where(column, "=", externalId).orderBy("id").executeTakeFirst();
}

export async function findLiveUserByEmail(db: Exec, email: string): Promise<UserRow | undefined> {
  return db.k
    .selectFrom("users")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

/** Claims the low-balance reminder of a user not reminded since `before`; answers whether this call claimed it. */
export async function claimQuotaReminder(db: Exec, id: number, now: number, before: number): Promise<boolean> {
  const result = await db.k
    .updateTable("users")
    .set({ quota_reminded_at: now })
    .where("id", "=", id)
    .where("quota_reminded_at", "<=", before)
    .executeTakeFirst();
  return affected(result) === 1;
}

/** Accepts a TOTP time step only when it is later than the last one accepted (a code works once). */
export async function advanceTotpStep(db: Exec, id: number, step: number): Promise<boolean> {
  const result = await db.k
    .updateTable("users")
    .set({ totp_last_step: step })
    .where("id", "=", id)
    .where("totp_last_step", "<", step)
    .executeTakeFirst();
  return affected(result) === 1;
}

/** Swaps the recovery-code list only when it is still the one read (a code works once under concurrency). */
export async function replaceRecoveryCodes(db: Exec, id: number, before: string, after: string): Promise<boolean> {
  const result = await db.k
    .updateTable("users")
    .set({ totp_recovery: after })
    .where("id", "=", id)
    .where("totp_recovery", "=", before)
    .executeTakeFirst();
  return affected(result) === 1;
}
