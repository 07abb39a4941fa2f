import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/server";

const CONSOLE = join(import.meta.dir, "../../src/console");
const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;

interface ConsoleCall {
  /** The HTTP method when the literal is the path of a call; undefined for a path kept in a variable. */
  method?: (typeof METHODS)[number];
  path: string;
  where: string;
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });

/** The providers a `${provider}` in a sign-in path stands for (the redirecting ones; the others have own paths). */
const PROVIDERS = ["github", "linuxdo", "oidc"];

/**
 * A path literal as the server sees it: the query dropped, `${a ? "x" : "y"}` as each branch, `${provider}` as each
 * sign-in provider, other `${…}` as 1.
 */
function concretePaths(literal: string): string[] {
  const path = literal.replace(/\$\{query\(.*$/, "");
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the console's source text, matched as text
  if (path.includes("${provider}")) return PROVIDERS.flatMap((p) => concretePaths(path.replaceAll("${provider}", p)));
  const choice = /\$\{[^{}]*\?\s*"([^"]*)"\s*:\s*"([^"]*)"\s*\}/.exec(path);
  if (choice) {
    const [whole, yes, no] = choice as unknown as [string, string, string];
    return [...concretePaths(path.replace(whole, yes)), ...concretePaths(path.replace(whole, no))];
  }
  return [path.replace(/\$\{[^}]*\}/g, "1").replace(/\?.*$/, "")];
}

/** Every `/api/…` string of the console, with the method of the call it is made in. */
function consoleCalls(): ConsoleCall[] {
  const calls: ConsoleCall[] = [];
  for (const file of sourceFiles(CONSOLE)) {
    const text = readFileSync(file, "utf8");
    const where = file.slice(CONSOLE.length + 1);
    const inCalls = new Set<number>();
    const call = /\b(?:api\.(get|post|put|delete)|useApiData)\s*(?:<[^()]*?>)?\(\s*("\/api\/[^"]*"|`\/api\/[^`]*`)/g;
    for (const m of text.matchAll(call)) {
      const method = (m[1] ?? "get").toUpperCase() as ConsoleCall["method"];
      inCalls.add(m.index! + m[0].length - m[2]!.length);
      for (const path of concretePaths(m[2]!.slice(1, -1))) calls.push({ method, path, where });
    }
    for (const m of text.matchAll(/"\/api\/[^"]*"|`\/api\/[^`]*`/g)) {
      if (inCalls.has(m.index!)) continue;
      for (const path of concretePaths(m[0].slice(1, -1))) calls.push({ path, where });
    }
  }
  return calls;
}

describe("every /api call of the console has a route on the server", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("sqlite");
  });
  afterAll(() => s.stop());

  /** Whether the server routes (method, path): anything but its JSON 404 for unknown paths. Signed out: nothing runs. */
  const routed = async (method: string, path: string) => {
    const reply = await fetch(s.url + path, {
      method,
      headers: method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" },
      body: method === "GET" || method === "DELETE" ? undefined : "{}",
    });
    const body = await reply.text();
    return !(reply.status === 404 && body.includes("Invalid URL"));
  };

  test("the scan finds the console's calls (the scanner itself works)", () => {
    const calls = consoleCalls();
    expect(calls.length).toBeGreaterThan(80);
    const seen = calls.map((c) => `${c.method ?? "?"} ${c.path}`);
    expect(seen).toContain("POST /api/user/login");
    expect(seen).toContain("GET /api/verification");
    expect(seen).toContain("? /api/channel/search");
    expect(seen).toContain("PUT /api/option/");
  });

  test("no call of the console is answered with the server's 404 for unknown paths", async () => {
    const missing: string[] = [];
    const checked = new Set<string>();
    for (const call of consoleCalls()) {
      const key = `${call.method ?? "ANY"} ${call.path}`;
      if (checked.has(key)) continue;
      checked.add(key);
      const methods = call.method ? [call.method] : METHODS;
      let found = false;
      for (const method of methods) if (!found && (await routed(method, call.path))) found = true;
      if (!found) missing.push(`${key} (${call.where})`);
    }
    expect(missing).toEqual([]);
  });
});
