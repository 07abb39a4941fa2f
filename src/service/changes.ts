export type ChangeTopic = "channels" | "tokens" | "users" | "options";

export const CHANGE_TOPICS: readonly ChangeTopic[] = ["channels", "tokens", "users", "options"];

type Listener = (id?: number) => void;

/**
 * Tells in-memory caches that stored data changed. Service writes emit after they commit; caches
 * (the relay's routing table, token and user caches, the balance book, options) listen and drop or
 * rebuild what they hold. Local emits are also handed to `outbox` so other processes hear of them.
 */
export class ChangeBus {
  private readonly listeners = new Map<ChangeTopic, Set<Listener>>();
  outbox: ((topic: ChangeTopic, id?: number) => void) | undefined;

  on(topic: ChangeTopic, listener: Listener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** `id` names the one changed row when there is one; without it, everything of the topic may have changed. */
  emit(topic: ChangeTopic, id?: number): void {
    this.deliver(topic, id);
    this.outbox?.(topic, id);
  }

  /** A change another process made: told to local listeners only. */
  deliver(topic: ChangeTopic, id?: number): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(id);
  }
}
