/** Polls `check` every 20 ms until it holds; throws after `ms` (a bound that proves nothing stalled; it times nothing). */
export async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await Bun.sleep(20);
  }
  throw new Error("condition not met in time");
}

/**
 * Whether a Tollgate at `url` answers `/api/status` within `ms` (a start under a loaded CI machine can take seconds;
 * the bound proves it did not hang). Gives up early, false, once `exited()` holds.
 */
export async function serving(url: string, ms = 20_000, exited = () => false): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until && !exited()) {
    try {
      if ((await fetch(`${url}/api/status`)).ok) return true;
    } catch {}
    await Bun.sleep(25);
  }
  return false;
}
