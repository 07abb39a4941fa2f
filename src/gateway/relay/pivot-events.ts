import type { PivotEvent } from "./dialects/types";

export type { PivotEvent };

/**
 * The events a provider wrote as the bytes of a whole pivot stream, keyed by those bytes (the very object the
 * relay hands on when it forwards them unchanged; not their memory, whose ArrayBuffer costs an allocation to reach).
 */
const written = new WeakMap<Uint8Array, readonly PivotEvent[]>();

/**
 * Notes that `bytes` (a whole pivot stream a provider has just mapped) are exactly `events` serialised, so that an
 * inbound dialect translating them need not parse them again.
 */
export function rememberPivotEvents(bytes: Uint8Array, events: readonly PivotEvent[]): void {
  written.set(bytes, events);
}

/**
 * The events `bytes` hold when they are the very bytes `rememberPivotEvents` was given; undefined for any other
 * bytes (never noted, or cut since: the relay drops a usage-only chunk into a shorter view), which must be parsed.
 */
export function pivotEventsOf(bytes: Uint8Array): readonly PivotEvent[] | undefined {
  return written.get(bytes);
}
