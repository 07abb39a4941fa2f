/** Server-side sessions: a random id in the cookie, only its keyed hash kept, revocable at once. */
export interface SessionStore {
  /** Starts a session and answers the raw id for the cookie. */
  create(userId: number): Promise<string>;
  /** The user of a live session, or undefined. */
  userOf(rawId: string): Promise<number | undefined>;
  revoke(rawId: string): Promise<void>;
  revokeAllOf(userId: number): Promise<void>;
  close(): Promise<void>;
}
