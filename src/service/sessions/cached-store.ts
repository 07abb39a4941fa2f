import type { SessionStore } from "./store";

interface Entry {
  userId: number;
  until: number;
}

/**
 * Remembers live sessions for a moment so a signed-in request does not wait on the store. Revocations made
 * through this process drop the entries at once; one made elsewhere shows within `freshMs`.
 */
export class CachedSessionStore implements SessionStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly inner: SessionStore,
    private readonly freshMs = 1000,
    private readonly maxEntries = 100_000,
  ) {}

  async create(userId: number): Promise<string> {
    return this.inner.create(userId);
  }

  async userOf(rawId: string): Promise<number | undefined> {
    const now = Date.now();
    const hit = this.entries.get(rawId);
    if (hit && hit.until > now) return hit.userId;
    const userId = await this.inner.userOf(rawId);
    if (userId === undefined) {
      this.entries.delete(rawId);
      return undefined;
    }
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(rawId, { userId, until: now + this.freshMs });
    return userId;
  }

  async revoke(rawId: string): Promise<void> {
    this.entries.delete(rawId);
    await this.inner.revoke(rawId);
  }

  async revokeAllOf(userId: number): Promise<void> {
    for (const [rawId, entry] of this.entries) if (entry.userId === userId) this.entries.delete(rawId);
    await this.inner.revokeAllOf(userId);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
