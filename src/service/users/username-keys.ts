import type { Exec } from "../../db/exec";
import { isUsernameKeyTaken, setUsernameKey, usersWithoutUsernameKey } from "../../db/queries/users";
import { usernameKey } from "./names";

/**
 * Fills in the look-alike key of users stored before it existed, oldest first: the oldest of a set of look-alike
 * names holds the key and so blocks new look-alikes; a younger one keeps its name (nobody is renamed) under a
 * key of its own, its id after " #" (no username holds a space, so no name's key can equal it).
 */
export async function fillUsernameKeys(db: Exec): Promise<number> {
  const users = await usersWithoutUsernameKey(db);
  for (const user of users) {
    const key = usernameKey(user.username);
    await setUsernameKey(db, user.id, (await isUsernameKeyTaken(db, key, user.id)) ? `${key} #${user.id}` : key);
  }
  return users.length;
}
