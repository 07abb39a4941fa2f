/**
 * Reads under way, by key: callers that miss a cache together wait for one read instead of each starting its
 * own (a busy key's entry dropped by a change would otherwise send every call in flight to the database).
 * `forget` on a change: callers from then on start a fresh read rather than join one begun before the change.
 */
export class SingleFlight<K, V> {
  private readonly running = new Map<K, Promise<V>>();

  run(key: K, read: () => Promise<V>): Promise<V> {
    let pending = this.running.get(key);
    if (!pending) {
      const started: Promise<V> = read().finally(() => {
        if (this.running.get(key) === started) this.running.delete(key);
      });
      this.running.set(key, started);
      pending = started;
    }
    return pending;
  }

  forget(key?: K): void {
    if (key === undefined) this.running.clear();
    else this.running.delete(key);
  }
}
