/**
 * Polls `check` every `everyMs` until it holds (true), or until `ms` pass or `stopped()` holds (false). A bound that
 * proves nothing stalled; it times nothing.
 */
async function pollUntil(
  check: () => Promise<boolean>,
  ms: number,
  everyMs: number,
  stopped: () => boolean = () => false,
): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until && !stopped()) {
    if (await check()) return true;
    await Bun.sleep(everyMs);
  }
  return false;
}

/** Polls `check` every 20 ms until it holds; throws after `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  if (!(await pollUntil(check, ms, 20))) throw new Error("condition not met in time");
}

const answersStatus = async (url: string) => {
  try {
    return (await fetch(`${url}/api/status`)).ok;
  } catch {
    return false; // not listening yet
  }
};

/**
 * Whether a Tollgate at `url` answers `/api/status` within `ms` (a start under a loaded CI machine can take
 * seconds); false at once when `exited()` holds.
 */
export const serving = (url: string, exited?: () => boolean, ms = 20_000): Promise<boolean> =>
  pollUntil(() => answersStatus(url), ms, 25, exited);
