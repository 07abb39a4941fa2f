import type { Exec } from "../../db/exec";
import type { ChangeBus } from "../changes";
import { SingleFlight } from "../single-flight";
import { findUserById, updateUser } from "../../db/queries/users";
import type { UserPatch, UserRow } from "../../db/schema";

/** The user rows the directory (and the services) hand out; callers outside the service import the type from here. */
export type { UserRow } from "../../db/schema";

interface Entry {
  user: UserRow | undefined;
  until: number;
}

/**
 * Users by id, remembered for a moment so signed-in requests do not wait on the database.
 * Every service write to a user calls forget(id) after it commits, which also tells the other caches
 * (the balance book) through the change bus; a change made by another process shows within `freshMs`.
 */
export class UserDirectory {
  private readonly entries = new Map<number, Entry>();

  constructor(
    private readonly db: Exec,
    private readonly changes: ChangeBus,
    private readonly freshMs = 1000,
    private readonly maxEntries = 100_000,
  ) {
    changes.on("users", (id) => {
      if (id === undefined) this.entries.clear();
      else this.entries.delete(id);
      this.reading.forget(id);
    });
  }

  /** The user when a fresh entry is held (null: known not to exist); undefined when it must be read (`get`). */
  peek(id: number): UserRow | null | undefined {
    const hit = this.entries.get(id);
    return hit && hit.until > Date.now() ? (hit.user ?? null) : undefined;
  }

  private readonly reading = new SingleFlight<number, UserRow | undefined>();

  get(id: number): Promise<UserRow | undefined> {
    const held = this.peek(id);
    if (held !== undefined) return Promise.resolve(held ?? undefined);
    return this.reading.run(id, () => this.read(id));
  }

  private async read(id: number): Promise<UserRow | undefined> {
    const now = Date.now();
    const user = await findUserById(this.db, id);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(id, { user, until: now + this.freshMs });
    return user;
  }

  /** Drops the cached user here and, through the change bus, in the balance book and other processes. */
  forget(id: number): void {
    this.changes.emit("users", id);
  }
}

/** Updates a user and drops the cached copy, so the next read in this process sees the change. */
export async function changeUser(
  ctx: { db: Exec; users: UserDirectory },
  id: number,
  patch: UserPatch,
): Promise<number> {
  const changed = await updateUser(ctx.db, id, patch);
  ctx.users.forget(id);
  return changed;
}
