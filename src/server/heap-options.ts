/**
 * The engine's heap settings for a server. JavaScriptCore lets its heap grow to about three times what survived
 * its last full collection on a machine with 16 GB of memory or more (twice below that) before it collects again:
 * a gateway relaying thousands of streams makes garbage fast, so most of its resident memory was garbage not yet
 * collected. These settings let it grow to about 1.5 times instead, with the full collection after an eden one
 * triggered only when less than a fifth of the heap is left (the engine's default, a third, makes every eden
 * collection a full one at that growth).
 *
 * The engine reads them from the environment once, when it starts: the server restarts itself at once with them
 * (execve: the same process, the same id), unless the operator set any of them, whose value then stands.
 */
export const HEAP_OPTIONS: Readonly<Record<string, string>> = {
  BUN_JSC_heapGrowthMaxIncrease: "0.5",
  BUN_JSC_minEdenToOldGenerationRatio: "0.2",
  BUN_JSC_smallHeapGrowthFactor: "1.5",
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
