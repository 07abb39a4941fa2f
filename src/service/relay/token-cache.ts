import { findLiveTokenByHash } from "../../db/queries/tokens";
import type { Exec } from "../../db/exec";
import type { TokenRow } from "../../db/schema";
import type { ChangeBus } from "../changes";
import { SingleFlight } from "../single-flight";

interface Entry {
  token: TokenRow | undefined;
  until: number;
}

/**
 * Tokens by key hash, so the relay does not wait on the database per call. A token change drops its entry
 * at once (change bus); unknown keys are remembered briefly too, so a flood of bad keys stays cheap.
 */
export class TokenCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly hashById = new Map<number, string>();
  private readonly unsubscribe: () => void;
  /** Lookups answered from memory, and those that had to read the database (for the operator's metrics). */
  hits = 0;
  misses = 0;

  constructor(
    private readonly db: Exec,
    changes: ChangeBus,
    private readonly freshMs = 1000,
    private readonly maxEntries = 200_000,
  ) {
    this.unsubscribe = changes.on("tokens", (id) => {
      if (id === undefined) {
        this.byHash.clear();
        this.hashById.clear();
        this.reading.forget();
        return;
      }
      const hash = this.hashById.get(id);
      if (hash) {
        this.byHash.delete(hash);
        this.reading.forget(hash);
      }
    });
  }

  private fresh(hash: string): TokenRow | null | undefined {
    const hit = this.byHash.get(hash);
    return hit && hit.until > Date.now() ? (hit.token ?? null) : undefined;
  }

  /** The token when a fresh entry is held (null: known not to exist); undefined when it must be read (`get`). */
  peek(hash: string): TokenRow | null | undefined {
    const held = this.fresh(hash);
    if (held === undefined) this.misses++;
    else this.hits++;
    return held;
  }

  private readonly reading = new SingleFlight<string, TokenRow | undefined>();

  get(hash: string): Promise<TokenRow | undefined> {
    const held = this.fresh(hash);
    if (held !== undefined) return Promise.resolve(held ?? undefined);
    return this.reading.run(hash, () => this.read(hash));
  }

  private async read(hash: string): Promise<TokenRow | undefined> {
    const now = Date.now();
    const token = await findLiveTokenByHash(this.db, hash);
    if (this.byHash.size >= this.maxEntries) {
      this.byHash.clear();
      this.hashById.clear();
    }
    this.byHash.set(hash, { token, until: now + (token ? this.freshMs : 1000) });
    if (token) this.hashById.set(token.id, hash);
    return token;
  }

  close(): void {
    this.unsubscribe();
  }
}
