/** A minted token and its lifetime in seconds. */
export interface Minted {
  token: string;
  expiresIn: number;
}

/** A token is renewed this long before it expires (half its lifetime for a shorter-lived one). */
const RENEW_BEFORE_MS = 60_000;

/**
 * Short-lived tokens by account: each kept until shortly before it expires; one mint in flight per account, which
 * every caller asking meanwhile waits for (a failed mint fails them all and is not remembered).
 */
export class TokenCache {
  private readonly tokens = new Map<string, { token: string; renewAt: number }>();
  private readonly minting = new Map<string, Promise<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  get(account: string, mint: () => Promise<Minted>): Promise<string> {
    const kept = this.tokens.get(account);
    if (kept && this.now() < kept.renewAt) return Promise.resolve(kept.token);
    let pending = this.minting.get(account);
    if (!pending) {
      pending = this.mint(account, mint).finally(() => this.minting.delete(account));
      this.minting.set(account, pending);
    }
    return pending;
  }

  private async mint(account: string, mint: () => Promise<Minted>): Promise<string> {
    const { token, expiresIn } = await mint();
    const lifetime = expiresIn * 1000;
    this.tokens.set(account, { token, renewAt: this.now() + lifetime - Math.min(RENEW_BEFORE_MS, lifetime / 2) });
    return token;
  }
}
