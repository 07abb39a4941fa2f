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

/** Settles after the event loop's current turn: a read that is still pending by then waits on the network. */
export const afterThisTurn = () => new Promise<typeof NOT_YET>((resolve) => setImmediate(resolve, NOT_YET));

/** A promise's value when it has already settled with one, without waiting; undefined while it is pending. */
export const settledValue = <T>(promise: Promise<T>): T | undefined =>
  Bun.peek.status(promise) === "fulfilled" ? (Bun.peek(promise) as T) : undefined;
