import { gzipSync } from "bun";
import { join } from "node:path";
import { launchChromium } from "../tests/e2e/support/chromium";
import { median, ROOT, startGateway } from "./support";

const DIST = join(ROOT, "dist/console");
const STATIC_IMPORT = /(?:from|import)\s*"(\/assets\/[^"]+\.js)"/g;

const gzipSize = async (path: string) =>
  gzipSync(new Uint8Array(await Bun.file(join(DIST, path)).arrayBuffer())).byteLength;

/** The JS and CSS a first visit downloads: what index.html names, plus the chunks the entry imports statically. */
export async function initialBundle(): Promise<{ jsBytes: number; cssBytes: number }> {
  const html = await Bun.file(join(DIST, "index.html")).text();
  const css = [...html.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
  const pending = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const js = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (js.has(file)) continue;
    js.add(file);
    const text = await Bun.file(join(DIST, file)).text();
    for (const m of text.matchAll(STATIC_IMPORT)) pending.push(m[1]!);
  }
  let jsBytes = 0;
  for (const file of js) jsBytes += await gzipSize(file);
  let cssBytes = 0;
  for (const file of css) cssBytes += await gzipSize(file);
  return { jsBytes, cssBytes };
}

/** ms from spawning `serve` (empty SQLite) until Chromium shows an editable sign-in form; the browser is already running. */
export async function loginInteractive(runs = 3): Promise<{ totalMs: number; pageMs: number }> {
  const browser = await launchChromium();
  const totals: number[] = [];
  const pages: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const started = performance.now();
      const gateway = await startGateway({ env: { INITIAL_ROOT_PASSWORD: "bench-root-pass" } });
      const navigating = performance.now();
      await page.goto(`${gateway.url}/login`, { waitUntil: "commit" });
      await page.locator("[data-testid=login-form] input[name=username]").waitFor({ state: "visible" });
      await page.locator("[data-testid=login-form] input[name=username]").fill("root");
      totals.push(performance.now() - started);
      pages.push(performance.now() - navigating);
      await context.close();
      await gateway.stop();
    }
  } finally {
    await browser.close();
  }
  return { totalMs: median(totals), pageMs: median(pages) };
}
