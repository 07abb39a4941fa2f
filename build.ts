#!/usr/bin/env bun
/**
 * Builds the console: compiled catalogs, Tailwind CSS, the browser bundle in dist/console, and
 * src/gen/console-assets.ts, the manifest through which the server embeds those files.
 */
import { $ } from "bun";
import { cp, mkdir, rm } from "node:fs/promises";
import { linguiMacroPlugin } from "./build/lingui-macro";
import { writeAssetManifest } from "./build/asset-manifest";

const OUT = "dist/console";
const started = performance.now();

await rm(OUT, { recursive: true, force: true });
await mkdir("src/console/gen", { recursive: true });
await $`bun --bun lingui compile --typescript --strict`.quiet();
await $`bun --bun tailwindcss -i src/console/styles.css -o src/console/gen/tailwind.css --minify`.quiet();

const result = await Bun.build({
  entrypoints: ["./src/console/index.html"],
  outdir: OUT,
  minify: true,
  splitting: true,
  publicPath: "/",
  naming: { entry: "[name].[ext]", chunk: "assets/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
  plugins: [linguiMacroPlugin()],
  define: { "process.env.NODE_ENV": '"production"' },
});
if (!result.success) {
  console.error(result.logs.join("\n"));
  process.exit(1);
}
await cp("src/console/public", OUT, { recursive: true });
const files = await writeAssetManifest(OUT, "src/gen/console-assets.ts");
console.log(`console built: ${files} files in ${OUT} (${Math.round(performance.now() - started)} ms)`);
