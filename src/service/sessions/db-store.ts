import type { Exec } from "../../db/exec";
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSessionUser,
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
    const now = nowSeconds();
    await insertSession(this.db, keyedHash(this.secret, raw), userId, now, now + this.ttlSeconds);
    return raw;
  }

  userOf(rawId: string): Promise<number | undefined> {
    return findSessionUser(this.db, keyedHash(this.secret, rawId), nowSeconds());
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
