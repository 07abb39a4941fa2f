import type { ServiceContext } from "../context";
import { refuse } from "../errors";

/**
 * Sign-in backoff, per account: after LOGIN_BACKOFF_AFTER failed attempts in a row each further attempt must
 * wait 2, 4, 8 … seconds (at most LOGIN_BACKOFF_MAX_SECONDS), wherever it comes from, and during the wait
 * every attempt is refused unread, the right password too (else the wait would not slow down guessing).
 * A refused attempt is not counted, so the wait never grows beyond the cap; a success clears the count.
 *
 * So that others' guesses cannot keep the owner out, an address the account signed in from within a
 * session's lifetime is exempt from the account's wait: its attempts are counted on their own, per account
 * and address, with the same rule, and a success there clears only that count (the others' guesses stay
 * held back). An unknown name is counted by name, so it behaves like an existing one.
 */
export interface SignInAttempt {
  /** Call after the password proved right: clears the count the attempt was made on and remembers the address. */
  succeeded(): Promise<void>;
}

export const tooManyFailures = (seconds: number) =>
  `too many failed sign-ins for this account, please try again in ${seconds} second${seconds === 1 ? "" : "s"}`;

const NO_BACKOFF: SignInAttempt = { succeeded: async () => {} };

/** Counts an attempt on the account (user id, or the name given when there is no such user) from `address`; 429 while it must wait. */
export async function beginSignInAttempt(
  ctx: ServiceContext,
  userId: number | undefined,
  name: string,
  address: string,
): Promise<SignInAttempt> {
  if (ctx.config.loginBackoff.freeFailures === 0) return NO_BACKOFF;
  const failures = ctx.signInFailures;
  const account = userId === undefined ? `name:${name.toLowerCase()}` : `user:${userId}`;
  const fromAddress = `${account}:from:${address}`;
  const known = `${account}:known:${address}`;
  const counted = userId !== undefined && (await failures.marked(known)) ? fromAddress : account;
  const wait = await failures.attempt(counted);
  if (wait > 0) refuse(tooManyFailures(wait), 429);
  return {
    async succeeded() {
      await failures.clear([counted]);
      await failures.mark(known, ctx.config.sessionTtlSeconds);
    },
  };
}
