/** Races a read against a timer, and always clears the timer: a stream does thousands of reads. */
export async function raceTimer<T, U>(read: Promise<T>, ms: number, outcome: U): Promise<T | U> {
  let timer: Timer | undefined;
  try {
    return await Promise.race([read, new Promise<U>((resolve) => (timer = setTimeout(() => resolve(outcome), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

export const NOT_YET: unique symbol = Symbol("not yet");

/** How long past its first caller a turn's end is waited for at most (see `afterThisTurn`). */
const TURN_WAIT_MS = 1;

let turnEnd: { promise: Promise<typeof NOT_YET>; settle(): void; since: number } | undefined;

/**
 * Settles after the event loop's current turn: a read that is still pending by then waits on the network. One
 * timer serves every caller of a turn: a timer per stream was held (with its stream's first read) by the runtime
 * for as long as the stream stayed open, ~1.5 KiB each with thousands open. With thousands of streams open a turn
 * lasts tens to hundreds of milliseconds, which a stream's first bytes would wait: a caller that finds the wait
 * older than TURN_WAIT_MS settles it at once.
 */
export function afterThisTurn(): Promise<typeof NOT_YET> {
  const now = performance.now();
  if (turnEnd && now - turnEnd.since >= TURN_WAIT_MS) {
    turnEnd.settle();
    turnEnd = undefined;
  }
  if (turnEnd) return turnEnd.promise;
  let settle!: () => void;
  const promise = new Promise<typeof NOT_YET>((resolve) => (settle = () => resolve(NOT_YET)));
  const wait = { promise, settle, since: now };
  turnEnd = wait;
  setImmediate(() => {
    if (turnEnd === wait) turnEnd = undefined;
    settle();
  });
  return promise;
}

/** A promise's value when it has already settled with one, without waiting; undefined while it is pending. */
export const settledValue = <T>(promise: Promise<T>): T | undefined =>
  Bun.peek.status(promise) === "fulfilled" ? (Bun.peek(promise) as T) : undefined;
