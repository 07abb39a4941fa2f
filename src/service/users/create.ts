import type { Exec } from "../../db/exec";
import { insertUser, isAffCodeTaken, isEmailTaken, isUsernameKeyTaken, isUsernameTaken } from "../../db/queries/users";
import type { NewUserRow } from "../../db/schema";
import { USERNAME_MAX } from "../../shared/constants";
import { randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { refuseUnseenCharacters, usernameKey } from "./names";
import { checkPasswordRules, hashPassword, NO_PASSWORD } from "./password";

export interface NewUser {
  username: string;
  /** null: no password, the user signs in only through an account bound elsewhere (NO_PASSWORD is stored). */
  password: string | null;
  display_name?: string;
  email?: string;
  role?: number;
  quota?: number;
  group?: string;
  inviter_id?: number;
}

/** A user checked and hashed, ready to insert (hashing is slow, so it happens before any transaction). */
export type PreparedUser = Omit<NewUserRow, "aff_code" | "created_at"> & { username_key: string };

/** The shape of a username that names a user (existing names predate the character rules, so they pass). */
export function checkUsername(username: string): string {
  const name = username.trim();
  if (!name) refuse("username is required");
  if ([...name].length > USERNAME_MAX) refuse(`username must be at most ${USERNAME_MAX} characters`);
  if (/\s/.test(name)) refuse("username must not contain spaces");
  return name;
}

/** A username a user is about to get: the shape, and no unseen characters. */
export const checkNewUsername = (username: string): string =>
  refuseUnseenCharacters(checkUsername(username), "username");

export const refuseLookAlike = async (db: Exec, key: string, exceptUserId = 0): Promise<void> => {
  if (await isUsernameKeyTaken(db, key, exceptUserId))
    refuse("username is taken: it looks like an existing user's name");
};

export async function prepareUser(input: NewUser): Promise<PreparedUser> {
  const username = checkNewUsername(input.username);
  if (input.password !== null) checkPasswordRules(input.password);
  const row: PreparedUser = {
    username,
    username_key: usernameKey(username),
    password: input.password === null ? NO_PASSWORD : await hashPassword(input.password),
    display_name: refuseUnseenCharacters(input.display_name?.trim() || username, "display name"),
    email: input.email?.trim() || null,
    access_token_hash: null,
    deleted_at: null,
  };
  if (input.role !== undefined) row.role = input.role;
  if (input.quota !== undefined) row.quota = input.quota;
  if (input.group !== undefined) row.group = input.group;
  if (input.inviter_id !== undefined) row.inviter_id = input.inviter_id;
  return row;
}

async function uniqueAffCode(db: Exec): Promise<string> {
  for (;;) {
    const code = randomAlphanumeric(6);
    if (!(await isAffCodeTaken(db, code))) return code;
  }
}

async function refuseIfTaken(db: Exec, user: PreparedUser): Promise<void> {
  if (await isUsernameTaken(db, user.username)) refuse("username already exists or has been deleted");
  await refuseLookAlike(db, user.username_key);
  if (user.email && (await isEmailTaken(db, user.email))) refuse("email is already in use");
}

/** Inserts a prepared user; soft-deleted names stay taken, and a lost race reads as the same refusal. */
export async function insertPreparedUser(db: Exec, user: PreparedUser): Promise<number> {
  await refuseIfTaken(db, user);
  try {
    return await insertUser(db, { ...user, aff_code: await uniqueAffCode(db), created_at: nowSeconds() });
  } catch (error) {
    await refuseIfTaken(db, user);
    throw error;
  }
}

export async function createUser(db: Exec, input: NewUser): Promise<number> {
  return insertPreparedUser(db, await prepareUser(input));
}
