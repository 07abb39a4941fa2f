import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = join(ROOT, "node_modules/.bin/depcruise");

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** The violations dependency-cruiser finds in the tree under `cwd`, with our configuration. */
async function violationsIn(cwd: string): Promise<Violation[]> {
  const run = Bun.spawn(["bun", "--bun", DEPCRUISE, "src", "--config", CONFIG, "--output-type", "json"], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  const report = JSON.parse(await new Response(run.stdout).text()) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

/** `bun run layers` (the package script the test command runs first) in `cwd`: its exit code and what it printed. */
async function runLayersScript(cwd: string): Promise<{ exitCode: number; output: string }> {
  const run = Bun.spawn(["bun", "run", "layers"], { cwd, stdout: "pipe", stderr: "pipe" });
  const [out, err, exitCode] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  return { exitCode, output: out + err };
}

const sorted = (violations: Violation[]) => violations.map((v) => `${v.rule}: ${v.from} → ${v.to}`).sort();

/** A small tree shaped like ours: one file per import to check, each importing what its comment says. */
const FIXTURE: Record<string, string> = {
  "src/shared/roles.ts": "export const ROOT = 100;",
  "src/db/schema.ts": "export interface UserRow { id: number }",
  "src/db/queries/users.ts":
    'import type { UserRow } from "../schema";\nexport const findUser = (id: number): UserRow => ({ id });',
  "src/service/users.ts":
    'import { findUser } from "../db/queries/users";\nexport type { UserRow } from "../db/schema";\nexport const user = findUser;',
  "src/service/port.ts": "export interface Probe { test(): void }",
  "src/gateway/app.ts": 'import { user } from "../service/users";\nexport const app = user;',
  "src/server/serve.ts": 'import { app } from "../gateway/app";\nexport const serve = () => app(1);',
  "src/main.ts": 'import { serve } from "./server/serve";\nserve();',
  // Allowed: console → shared; api → service (its types too); cli → the start-up wiring; a type-only cycle.
  "src/console/ok.ts": 'import { ROOT } from "../shared/roles";\nexport const ok = ROOT;',
  "src/gateway/api/ok.ts":
    'import { user, type UserRow } from "../../service/users";\nexport const ok = (): UserRow => user(1);',
  "src/cli/serve-command.ts": 'export const start = async () => (await import("../server/serve")).serve();',
  "src/service/type-cycle-a.ts":
    'import type { B } from "./type-cycle-b";\nexport interface A { b?: B }\nexport const a = 1;',
  "src/service/type-cycle-b.ts": 'import { a } from "./type-cycle-a";\nexport interface B { a: typeof a }',
  // Forbidden, one per rule.
  "src/console/bad.ts": 'import { user } from "../service/users";\nexport const bad = user;',
  "src/service/bad.ts": 'import { app } from "../gateway/app";\nexport const bad = app;',
  "src/db/bad.ts": 'import { user } from "../service/users";\nexport const bad = user;',
  "src/gateway/api/bad.ts": 'import { findUser } from "../../db/queries/users";\nexport const bad = findUser;',
  "src/cli/bad-type.ts": 'import type { UserRow } from "../db/schema";\nexport type Bad = UserRow;',
  "src/gateway/relay/providers/bad.ts": 'import type { Probe } from "../../../service/port";\nexport type Bad = Probe;',
  "src/gateway/starts-server.ts": 'import { serve } from "../server/serve";\nexport const bad = serve;',
  "src/server/bad.ts": 'import { findUser } from "../db/queries/users";\nexport const bad = findUser;',
  "src/service/cycle-a.ts": 'import { b } from "./cycle-b";\nexport const a = () => b;',
  "src/service/cycle-b.ts": 'import { a } from "./cycle-a";\nexport const b = () => a;',
};

describe("the layer rules of DESIGN.md are checked (bun run layers)", () => {
  let dir: string;
  let found: Violation[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tollgate-layers-"));
    for (const [path, text] of Object.entries(FIXTURE)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), `${text}\n`);
    }
    // The package script, run as the repository runs it: our configuration, our installed dependency-cruiser.
    const { scripts } = await Bun.file(join(ROOT, "package.json")).json();
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "layers-fixture", private: true, scripts: { layers: scripts.layers } }),
    );
    symlinkSync(CONFIG, join(dir, ".dependency-cruiser.cjs"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    found = await violationsIn(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("each broken arrow is reported under its rule, and only the broken ones (an `import type` counts; a cycle through one does not)", () => {
    expect(sorted(found)).toEqual(
      sorted([
        { rule: "console-only-shared", from: "src/console/bad.ts", to: "src/service/users.ts" },
        { rule: "service-never-gateway-cli-console", from: "src/service/bad.ts", to: "src/gateway/app.ts" },
        { rule: "db-never-service-gateway", from: "src/db/bad.ts", to: "src/service/users.ts" },
        { rule: "api-and-cli-never-db", from: "src/gateway/api/bad.ts", to: "src/db/queries/users.ts" },
        { rule: "api-and-cli-never-db", from: "src/cli/bad-type.ts", to: "src/db/schema.ts" },
        { rule: "providers-never-service-db", from: "src/gateway/relay/providers/bad.ts", to: "src/service/port.ts" },
        { rule: "server-wiring-used-by-main-and-cli", from: "src/gateway/starts-server.ts", to: "src/server/serve.ts" },
        { rule: "server-wiring-through-services", from: "src/server/bad.ts", to: "src/db/queries/users.ts" },
        { rule: "no-circular", from: "src/service/cycle-a.ts", to: "src/service/cycle-b.ts" },
      ]),
    );
  });

  test("a broken rule fails `bun run layers` (and so the test command CI runs)", async () => {
    const { exitCode, output } = await runLayersScript(dir);
    expect(output).toContain("error api-and-cli-never-db: src/cli/bad-type.ts → src/db/schema.ts");
    expect(exitCode).not.toBe(0);
  });

  test("our own tree keeps every rule", async () => {
    expect(await violationsIn(ROOT)).toEqual([]);
    expect((await runLayersScript(ROOT)).exitCode).toBe(0);
  });
});
