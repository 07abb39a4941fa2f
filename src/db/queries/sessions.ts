import type { Exec } from "../exec";

export async function insertSession(db: Exec, id: string, userId: number, now: number, expiresAt: number) {
  await db.k.insertInto("sessions").values({ id, user_id: userId, created_at: now, expires_at: expiresAt }).execute();
}

/** The user and expiry (epoch seconds) of a live session. */
export async function findLiveSession(
  db: Exec,
  id: string,
  now: number,
): Promise<{ user_id: number; expires_at: number } | undefined> {
  return db.k
    .selectFrom("sessions")
    .select(["user_id", "expires_at"])
    .where("id", "=", id)
    .where("expires_at", ">", now)
    .executeTakeFirst();
}

export async function deleteSession(db: Exec, id: string): Promise<void> {
  await db.k.deleteFrom("sessions").where("id", "=", id).execute();
}

export async function deleteUserSessions(db: Exec, userId: number): Promise<void> {
  await db.k.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

export async function deleteExpiredSessions(db: Exec, now: number): Promise<void> {
  await db.k.deleteFrom("sessions").where("expires_at", "<=", now).execute();
}
