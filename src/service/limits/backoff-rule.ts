import type { LoginBackoff } from "./settings";

/**
 * The wait before the next sign-in attempt on an account after `failures` failed ones in a row: none for the
 * first `freeFailures`, then 2, 4, 8 … seconds, doubling with each further failure, at most `maxSeconds`.
 */
export function backoffSeconds(failures: number, { freeFailures, maxSeconds }: LoginBackoff): number {
  if (freeFailures === 0 || failures < freeFailures) return 0;
  return Math.min(2 ** Math.min(failures - freeFailures + 1, 31), maxSeconds);
}

/** The waits after the free failures, in order, the last one (the cap) repeating: the rule as data, for a store that applies it elsewhere. */
export function backoffSteps(backoff: LoginBackoff): number[] {
  const steps: number[] = [];
  for (let failures = backoff.freeFailures; steps.length < 32; failures++) {
    steps.push(backoffSeconds(failures, backoff));
    if (steps.at(-1)! >= backoff.maxSeconds) break;
  }
  return steps;
}
