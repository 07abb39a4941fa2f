import type { Exec } from "../../db/exec";
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findLiveSession,
  insertSession,
} from "../../db/queries/sessions";
import { keyedHash, randomAlphanumeric } from "../crypto";
import { nowSeconds } from "../time";
import type { SessionStore } from "./store";

export class DbSessionStore implements SessionStore {
  private readonly sweeper: Timer;

  constructor(
    private readonly db: Exec,
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.sweeper = setInterval(() => deleteExpiredSessions(db, nowSeconds()).catch(() => {}), 3600_000);
    this.sweeper.unref();
  }

  async create(userId: number): Promise<string> {
    const raw = randomAlphanumeric(43);
    const now = Date.now() / 1000;
    // Expiry is kept in whole seconds and read against the clock's whole second: rounded up, a session lives its whole
    // TTL (rounded down, one made at a second's end would lose most of that second).
    const expiresAt = Math.ceil(now) + this.ttlSeconds;
    await insertSession(this.db, keyedHash(this.secret, raw), userId, Math.floor(now), expiresAt);
    return raw;
  }

  async userOf(rawId: string): Promise<number | undefined> {
    return (await this.find(keyedHash(this.secret, rawId)))?.userId;
  }

  /** The live session stored under `hash` (the keyed hash of its raw id). */
  async find(hash: string): Promise<{ userId: number; expiresAt: number } | undefined> {
    const row = await findLiveSession(this.db, hash, nowSeconds());
    return row && { userId: row.user_id, expiresAt: row.expires_at };
  }

  revoke(rawId: string): Promise<void> {
    return deleteSession(this.db, keyedHash(this.secret, rawId));
  }

  revokeAllOf(userId: number): Promise<void> {
    return deleteUserSessions(this.db, userId);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
