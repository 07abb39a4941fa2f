import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const LOCALES = join(ROOT, "src/console/locales");
const work = mkdtempSync(join(tmpdir(), "tollgate-catalogs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** msgid → msgstr of a .po file (single-line entries, as Lingui writes them). */
function readPo(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  let id: string | undefined;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const msgid = /^msgid "(.*)"$/.exec(line);
    if (msgid) id = msgid[1];
    const msgstr = /^msgstr "(.*)"$/.exec(line);
    if (msgstr && id) entries.set(id, msgstr[1]!);
  }
  return entries;
}

/** Extracts the messages of the console and the TUI afresh into a copy of the catalogs, so the committed ones stay untouched. */
async function extractFresh(): Promise<void> {
  cpSync(LOCALES, join(work, "locales"), { recursive: true });
  const config = join(work, "lingui.config.ts");
  writeFileSync(
    config,
    `export default ${JSON.stringify({
      rootDir: ROOT,
      sourceLocale: "en",
      locales: ["en", "zh"],
      catalogs: [
        {
          path: join(work, "locales/{locale}/messages"),
          include: [join(ROOT, "src/console"), join(ROOT, "src/cli/tui")],
        },
      ],
    })};`,
  );
  const proc = Bun.spawn(["bun", "--bun", "lingui", "extract", "--workers", "1", "--config", config], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`lingui extract failed: ${await new Response(proc.stderr).text()}`);
}

describe("console catalogs", () => {
  test("every message of the console and the TUI is in the committed zh and en catalogs, translated", async () => {
    await extractFresh();
    for (const locale of ["zh", "en"]) {
      const fresh = readPo(join(work, "locales", locale, "messages.po"));
      const committed = readPo(join(LOCALES, locale, "messages.po"));
      const untranslated = [...fresh].filter(([id, text]) => id !== "" && text === "").map(([id]) => id);
      expect({ locale, untranslated }).toEqual({ locale, untranslated: [] });
      expect({ locale, ids: [...committed.keys()].sort() }).toEqual({ locale, ids: [...fresh.keys()].sort() });
    }
  }, 60_000);
});
