import { boundedWait } from "./connection";

let lastWarning = 0;

/** One line per 30 s at most while Redis is failing, not one per call. */
function warn(what: string, error: unknown): void {
  const now = Date.now();
  if (now - lastWarning < 30_000) return;
  lastWarning = now;
  console.warn(`[redis] ${what} fell back to this instance's memory: ${(error as Error)?.message ?? error}`);
}

/**
 * `shared` (kept in Redis) while Redis answers within `timeoutMs`; for a call it does not, the same call on
 * `local` (this process's memory). Counts kept while Redis is down are per instance, and Redis's are used again
 * as soon as it answers. close() closes both.
 */
export function sharedOrLocal<T extends { close(): void }>(shared: T, local: T, timeoutMs: number, what: string): T {
  return new Proxy(shared, {
    get(target, property) {
      if (property === "close")
        return () => {
          target.close();
          local.close();
        };
      const method = Reflect.get(target, property);
      if (typeof method !== "function") return method;
      return (...args: unknown[]) =>
        boundedWait(Promise.resolve(method.apply(target, args)), timeoutMs, what).catch((error) => {
          warn(what, error);
          return (Reflect.get(local, property) as (...a: unknown[]) => unknown).apply(local, args);
        });
    },
  });
}
