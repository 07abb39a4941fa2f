import type { PivotEvent } from "./dialects/types";

export type { PivotEvent };

/** The events a provider wrote as the bytes of a whole pivot stream, keyed by those bytes' memory. */
const written = new WeakMap<ArrayBufferLike, { byteLength: number; events: readonly PivotEvent[] }>();

/**
 * Notes that `bytes` (a whole pivot stream a provider has just mapped) are exactly `events` serialised, so that an
 * inbound dialect translating them need not parse them again.
 */
export function rememberPivotEvents(bytes: Uint8Array, events: readonly PivotEvent[]): void {
  if (bytes.byteOffset === 0) written.set(bytes.buffer, { byteLength: bytes.byteLength, events });
}

/**
 * The events `bytes` hold when they are still the very bytes `rememberPivotEvents` was given; undefined when they
 * were never noted or have been cut since (the relay drops a usage-only chunk in place), and must be parsed.
 */
export function pivotEventsOf(bytes: Uint8Array): readonly PivotEvent[] | undefined {
  const known = written.get(bytes.buffer);
  return known && bytes.byteOffset === 0 && known.byteLength === bytes.byteLength ? known.events : undefined;
}
