import { TurnBatch } from "../../shared/turn-batch";

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

let turnEnd: { promise: Promise<typeof NOT_YET>; settle(): void } | undefined;
const turnWait = new TurnBatch();

/**
 * Settles after the event loop's current turn: a read that is still pending by then waits on the network. One
 * timer serves every caller of a turn: a timer per stream was held (with its stream's first read) by the runtime
 * for as long as the stream stayed open, ~1.5 KiB each with thousands open. A caller that finds the wait overdue
 * (a long turn, see TurnBatch) settles it at once.
 */
export function afterThisTurn(): Promise<typeof NOT_YET> {
  if (turnEnd && turnWait.overdue) {
    turnEnd.settle();
    turnEnd = undefined;
  }
  if (turnEnd) return turnEnd.promise;
  let settle!: () => void;
  const promise = new Promise<typeof NOT_YET>((resolve) => (settle = () => resolve(NOT_YET)));
  const wait = { promise, settle };
  turnEnd = wait;
  turnWait.open();
  setImmediate(() => {
    if (turnEnd === wait) turnEnd = undefined;
    settle();
  });
  return promise;
}

/** A promise's value when it has already settled with one, without waiting; undefined while it is pending. */
export const settledValue = <T>(promise: Promise<T>): T | undefined =>
  Bun.peek.status(promise) === "fulfilled" ? (Bun.peek(promise) as T) : undefined;
