#!/usr/bin/env bun
import { exitQuietlyOnEpipe } from "./cli/stdout";
import { withHeapOptions } from "./server/heap-options";
import { VERSION } from "./shared/version";

/*
 * The two command lines whose start-up time matters skip commander: what they do is fixed. Everything else,
 * including these commands with any option, goes through the CLI program. Each part is loaded on demand,
 * which the compiled executable (built with code splitting) turns into chunks read only when reached.
 */
const args = process.argv.slice(2);
if (args.length === 0 || args[0] === "serve") withHeapOptions();
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // As commander's version option: the version on stdout, exit code 0.
  exitQuietlyOnEpipe();
  process.stdout.write(`${VERSION}\n`);
} else if (args.length === 0 || (args.length === 1 && args[0] === "serve")) {
  // As the CLI's default command `serve` without options, errors reported the same way.
  exitQuietlyOnEpipe();
  try {
    const { serve } = await import("./server/serve");
    await serve({});
  } catch (error) {
    // A start that failed exits at once: nothing it opened may keep the process alive.
    (await import("./cli/output")).report(error);
    process.exit(process.exitCode);
  }
} else {
  const { runCli } = await import("./cli/program");
  await runCli(process.argv);
}
