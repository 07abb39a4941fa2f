import type { Db } from "../../db/connect";
import { inTransaction, type Exec } from "../../db/exec";
import { readAll, upsert } from "../../db/queries/key-value";
import type { ChangeBus } from "../changes";
import { refuse } from "../errors";
import { checkConsistency } from "./consistency";
import type { BoolOptionKey, JsonOptionKey, NumberOptionKey, OptionEntry, OptionKey } from "../../shared/option-keys";
import { OPTION_BY_KEY, OPTION_DEFS, type OptionDef } from "./registry";
import { normalizeOptionValue } from "./validate";

const defOf = (key: OptionKey): OptionDef => OPTION_BY_KEY.get(key) ?? refuse(`unknown option: ${key}`);

/**
 * Site options held in memory: read without waiting on the database, written through to it. A change
 * is announced to other processes only (this one already holds it); one from elsewhere reloads all.
 */
export class OptionStore {
  private values = new Map<OptionKey, string>();
  private parsed = new Map<OptionKey, unknown>();

  constructor(
    private readonly db: Db,
    private readonly changes?: ChangeBus,
  ) {
    for (const def of OPTION_DEFS) this.values.set(def.key, def.default);
    changes?.on("options", () => void this.load().catch(() => {}));
  }

  /** Loads stored values over the defaults; a stored value that no longer validates keeps the default. */
  async load(): Promise<void> {
    const stored = await readAll(this.db, "options");
    const next = new Map<OptionKey, string>();
    for (const def of OPTION_DEFS) {
      const raw = this.opened(def, stored.get(def.key));
      let value = def.default;
      if (raw !== undefined) {
        try {
          value = normalizeOptionValue(def, raw);
        } catch {
          value = def.default;
        }
      }
      next.set(def.key, value);
    }
    this.values = next;
    this.parsed.clear();
  }

  raw(key: OptionKey): string {
    const value = this.values.get(key);
    if (value === undefined) throw new Error(`unknown option ${key}`);
    return value;
  }

  bool(key: BoolOptionKey): boolean {
    return this.raw(key) === "true";
  }

  num(key: NumberOptionKey): number {
    return Number(this.raw(key));
  }

  json<T>(key: JsonOptionKey): T {
    if (!this.parsed.has(key)) this.parsed.set(key, JSON.parse(this.raw(key)));
    return this.parsed.get(key) as T;
  }

  /** Every option as stored, secrets blanked. */
  list(): OptionEntry[] {
    return OPTION_DEFS.map((def) => ({ key: def.key, value: def.secret ? "" : this.raw(def.key) }));
  }

  /** Validates and saves one option; it takes effect in this process at once. */
  async set(key: OptionKey, value: unknown): Promise<string> {
    const stored = normalizeOptionValue(defOf(key), value);
    checkConsistency(key, stored, (other) => this.raw(other));
    await this.write(key, stored);
    return stored;
  }

  /** Puts options back to their registry defaults, all of them or none. */
  async reset(keys: readonly OptionKey[]): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      for (const key of keys) await upsert(tx, "options", key, this.sealed(defOf(key), defOf(key).default));
    });
    for (const key of keys) this.remember(key, defOf(key).default);
    this.changes?.outbox?.("options");
  }

  /**
   * Writes already normalized values inside the caller's transaction (`tx`); call `remembered` with the same
   * values once it commits, so this process sees them.
   */
  async writeIn(tx: Exec, values: ReadonlyMap<OptionKey, string>): Promise<void> {
    for (const [key, stored] of values) await upsert(tx, "options", key, this.sealed(defOf(key), stored));
  }

  remembered(values: ReadonlyMap<OptionKey, string>): void {
    for (const [key, stored] of values) this.remember(key, stored);
    if (values.size > 0) this.changes?.outbox?.("options");
  }

  private async write(key: OptionKey, stored: string): Promise<void> {
    await upsert(this.db, "options", key, this.sealed(defOf(key), stored));
    this.remember(key, stored);
    this.changes?.outbox?.("options");
  }

  /** Secret options are encrypted at rest (Db.secrets); this store holds them decrypted. */
  private sealed(def: OptionDef, value: string): string {
    return def.secret && this.db.secrets ? this.db.secrets.seal(value) : value;
  }

  private opened(def: OptionDef, stored: string | undefined): string | undefined {
    return def.secret && this.db.secrets && stored !== undefined ? this.db.secrets.open(stored) : stored;
  }

  private remember(key: OptionKey, stored: string): void {
    this.values.set(key, stored);
    this.parsed.delete(key);
  }
}
