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
  /**
   * Tells other instances which balances this one has just written (only where instances share balances, i.e.
   * through Redis); they deliver it as changes of those users and tokens and re-read the balances.
   */
  spentOutbox: ((users: number[], tokens: number[]) => void) | undefined;

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

  /** Balances this process wrote (its own caches already know): told to other processes only. */
  announceSpent(users: number[], tokens: number[]): void {
    if (users.length + tokens.length > 0) this.spentOutbox?.(users, tokens);
  }

  /** A change another process made: told to local listeners only. */
  deliver(topic: ChangeTopic, id?: number): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(id);
  }
}
