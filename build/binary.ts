#!/usr/bin/env bun
/**
 * Compiles the single executable dist/tollgate: server, relay, embedded console (built first by build.ts),
 * CLI and TUI. Bytecode and ESM for a fast start, and code splitting: every `import()` becomes a separately
 * embedded chunk that is loaded (and its bytecode read) only when reached, so `--version` loads src/main.ts
 * alone and `serve` never reads the CLI's commands, the TUI (ink, react, yoga) or apply's YAML code.
 */
import type { BunPlugin } from "bun";
import { linguiMacroPlugin } from "./lingui-macro";

/** ink imports react-devtools-core, an optional peer only used when debugging; a stub keeps it out. */
const stubReactDevtools: BunPlugin = {
  name: "stub-react-devtools-core",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "stub" }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export default { initialize() {}, connectToDevTools() {} };",
      loader: "js",
    }));
  },
};

const started = performance.now();
const result = await Bun.build({
  // The prompt counter's thread is an entry of its own: a worker's script must be one (see counting-thread.ts).
  entrypoints: ["./src/main.ts", "./src/service/billing/token-worker.ts"],
  compile: { outfile: "./dist/tollgate", target: "bun-linux-x64" },
  minify: true,
  bytecode: true,
  format: "esm",
  splitting: true,
  plugins: [stubReactDevtools, linguiMacroPlugin()],
  define: { "process.env.NODE_ENV": '"production"' },
});
if (!result.success) {
  console.error(result.logs.join("\n"));
  process.exit(1);
}
const size = Bun.file("dist/tollgate").size;
console.log(
  `dist/tollgate built: ${(size / 1024 / 1024).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms`,
);
