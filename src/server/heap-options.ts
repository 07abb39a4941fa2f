/**
 * The engine's heap settings for a server. JavaScriptCore lets its heap grow to about three times what survived
 * its last full collection on a machine with 16 GB of memory or more (twice below that) before it collects again:
 * a gateway relaying thousands of streams makes garbage fast, so most of its resident memory was garbage not yet
 * collected. These settings let it grow to about 1.3 times instead, with the full collection after an eden one
 * triggered when less than 14 % of the heap is left (the engine's default, a third, makes every eden collection a
 * full one at that growth). A stream's objects live as long as the call, so they outlive the eden collections and
 * wait for a full one: with a tenth, 500 open streams held ~40 KiB of RSS each (the forwarder ~16); with 14 %, ~28,
 * for more frequent full collections (each stops the program 11–31 ms at that N). At 1.25 times a full collection
 * came every two seconds at 500 open streams and every second at 1 000, and its stop was the streams' p99 delay; at
 * 1.3 times they come half as often, for ~2.5 KiB more RSS per open stream (README, "Open streams", session 27). They
 * also cost a gateway saturated with short calls 5–8 µs a call (one after every few eden ones, each of which
 * promotes the calls then in flight); a growth of 1.5 gives that back and doubles the memory of 500 open streams.
 *
 * The collections stop the program instead of marking beside it: on the one core a server is given, marking only
 * takes turns with the program. Where that core has time to spare it halves the added gap's p99 (1 000 open
 * streams, ~40 % busy: 3.9–8.8 against 8.2–13.8 ms), but where it has little, the load the gap target is set at, it
 * lengthens it (2 000 streams, ~75 % busy: 35–39 against 28–32 ms; README, "Open streams", session 23).
 *
 * The engine reads them from the environment once, when it starts: the server restarts itself at once with them
 * (execve: the same process, the same id), unless the operator set any of them, whose value then stands.
 */
export const HEAP_OPTIONS: Readonly<Record<string, string>> = {
  BUN_JSC_heapGrowthMaxIncrease: "0.3",
  BUN_JSC_minEdenToOldGenerationRatio: "0.14",
  BUN_JSC_smallHeapGrowthFactor: "1.3",
  BUN_JSC_useConcurrentGC: "0",
};

/** Restarts this process with the heap settings unless they are in its environment already; returns if they are. */
export function withHeapOptions(): void {
  const names = Object.keys(HEAP_OPTIONS);
  if (names.some((name) => process.env[name] !== undefined)) return;
  // A compiled executable is its own script (its argv[1] is the embedded entry): it takes the arguments alone.
  const compiled = process.argv[1]?.startsWith("/$bunfs/") ?? false;
  const argv = compiled
    ? [process.execPath, ...process.argv.slice(2)]
    : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  try {
    process.execve?.(process.execPath, argv, { ...process.env, ...HEAP_OPTIONS });
  } catch {
    // Not restartable here (no execve on this platform): the engine's defaults serve.
  }
}
