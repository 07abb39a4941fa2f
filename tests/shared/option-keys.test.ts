import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { OPTION_DEFS } from "../../src/service/options/registry";
import { isOptionKey, OPTION_KINDS } from "../../src/shared/option-keys";

const ROOT = resolve(import.meta.dir, "../..");
const TYPOS = join(import.meta.dir, "option-key-typos.ts");
const MARK = "// @ts-expect-error";

/** Compiles `files` (name → source) with the project's settings; answers each error as "name:line". */
function compileErrors(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), "option-keys-"));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
    const config = {
      extends: join(ROOT, "tsconfig.json"),
      compilerOptions: { typeRoots: [join(ROOT, "node_modules/@types")] },
      files: Object.keys(files).map((name) => join(dir, name)),
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    const run = Bun.spawnSync([join(ROOT, "node_modules/.bin/tsc"), "--noEmit", "--pretty", "false", "-p", dir], {
      cwd: ROOT,
    });
    const output = run.stdout.toString() + run.stderr.toString();
    const errors = [...output.matchAll(/([\w.-]+\.ts)\((\d+),\d+\): error TS\d+/g)].map((m) => `${m[1]}:${m[2]}`);
    if (run.exitCode !== 0 && errors.length === 0) throw new Error(`tsc failed without a located error:\n${output}`);
    return errors;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("option keys are one list shared by server and console", () => {
  test("the shared list and the server's registry name the same options, one to one, of the same kinds", () => {
    const registry: string[] = OPTION_DEFS.map((def) => def.key);
    expect(new Set(registry).size).toBe(registry.length);
    expect([...registry].sort()).toEqual(Object.keys(OPTION_KINDS).sort());
    for (const def of OPTION_DEFS) expect(`${def.key}: ${def.kind}`).toBe(`${def.key}: ${OPTION_KINDS[def.key]}`);
  });

  test("a key from outside is an option key only when listed, by its exact name", () => {
    for (const key of Object.keys(OPTION_KINDS)) expect(isOptionKey(key)).toBe(true);
    for (const key of [
      "",
      "systemname",
      "SystemName ",
      "NoSuchOption",
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
    ]) {
      expect(isOptionKey(key)).toBe(false);
    }
  });

  test("a misspelled key, or a key of the wrong kind, does not compile in a reader, a settings card or the registry", () => {
    const source = readFileSync(TYPOS, "utf8").replaceAll('"../../src/', `"${ROOT}/src/`);
    const lines = source.split("\n");
    const marked = lines.flatMap((line, i) => (line.trim().startsWith(MARK) ? [`unmarked.ts:${i + 2}`] : []));
    expect(marked.length).toBeGreaterThanOrEqual(10);
    const unmarked = lines.map((line) => line.replace(MARK, "// (expected error)")).join("\n");
    // The file as written compiles (every mark is used); without the marks, exactly the marked lines fail.
    expect(compileErrors({ "marked.ts": source, "unmarked.ts": unmarked }).sort()).toEqual(marked.sort());
  });
});
