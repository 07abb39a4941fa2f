/** Polls `check` every 20 ms until it holds; throws after `ms` (a bound that proves nothing stalled; it times nothing). */
export async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await Bun.sleep(20);
  }
  throw new Error("condition not met in time");
}
