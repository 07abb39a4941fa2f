import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * The English messages the server can send to the console, the CLI and the TUI, found in the source:
 * the first argument of refuse(), notFound(), unauthorized(), new ServiceError(), failure() and the
 * message of ok(data, "…"), as literals, templates (each `${…}` becomes {0}, {1}, …) or the names of
 * constants and message functions defined in the same folders. Used by the catalog's completeness test
 * (`bun tests/house/server-messages.test.ts` lists what is missing). The relay's own errors (English unless
 * RelayErrorLanguage is zh) are found apart by relayMessages.
 */
export const MESSAGE_FOLDERS = ["src/service", "src/gateway/api", "src/gateway/http", "src/gateway/app.ts", "src/cli"];
const SKIPPED = ["src/service/relay/", "src/service/i18n/"];

const CALL = /\b(refuse|notFound|unauthorized|forbidden|new ServiceError|failure)\(\s*/g;

/**
 * Where the relay's refusals are made, and how: RelayError (after its status), invalidRequest, DialectRefusal; and
 * the errors the gateway writes into a streamed reply itself, through the call's StreamWording (`wording(…)`).
 */
const RELAY_FOLDERS = [
  "src/gateway/relay",
  "src/service/relay",
  "src/service/billing",
  "src/service/tasks",
  "src/shared",
];
const RELAY_CALL =
  /\b(new RelayError\(\s*\d+,|invalidRequest\(|new DialectRefusal\(|unauthorized\(|forbidden\(|wording\()\s*/g;
const OK_MESSAGE = /\bok\([^()]*?,\s*(?=["`])/g;
const DEFINITION =
  /(?:const|function)\s+([A-Za-z_$][\w$]*)\s*(?:=\s*(?:\([^)]*\)\s*(?::\s*\w+\s*)?=>\s*)?|\([^)]*\)\s*(?::\s*\w+\s*)?\{\s*return\s+)(["`])/g;

function filesUnder(root: string, path: string, skipped: string[]): string[] {
  const full = join(root, path);
  if (path.endsWith(".ts") || path.endsWith(".tsx")) return [full];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => join(full, name))
    .filter((file) => !skipped.some((skip) => relative(root, file).startsWith(skip)));
}

/** The string literal or template starting at `at` (its quote), as a catalog key. */
function literalAt(text: string, at: number): string | undefined {
  const quote = text[at];
  if (quote !== '"' && quote !== "`") return undefined;
  let out = "";
  let index = 0;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      out += text[++i];
      continue;
    }
    if (c === quote) return out;
    if (quote === "`" && c === "$" && text[i + 1] === "{") {
      let depth = 0;
      for (; i < text.length; i++) {
        if (text[i] === "{") depth++;
        else if (text[i] === "}" && --depth === 0) break;
      }
      out += `{${index++}}`;
      continue;
    }
    out += c;
  }
  return undefined;
}

const identifierAt = (text: string, at: number) => /^[A-Za-z_$][\w$]*/.exec(text.slice(at))?.[0];

/** Every message the server can send, as catalog keys, with where each was found. */
export const serverMessages = (root: string): Map<string, string> => messagesIn(root, MESSAGE_FOLDERS, SKIPPED, CALL);

/** Every message of a relay (/v1, /v1beta) error, as catalog keys, with where each was found. */
export const relayMessages = (root: string): Map<string, string> =>
  messagesIn(root, RELAY_FOLDERS, ["src/service/i18n/"], RELAY_CALL);

function messagesIn(root: string, folders: string[], skipped: string[], call: RegExp): Map<string, string> {
  const files = folders.flatMap((folder) => filesUnder(root, folder, skipped));
  const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
  const definitions = new Map<string, string>();
  for (const text of texts.values()) {
    for (const match of text.matchAll(DEFINITION)) {
      const value = literalAt(text, match.index + match[0].length - 1);
      if (value !== undefined && /[a-z] [a-z]/i.test(value)) definitions.set(match[1]!, value);
    }
  }
  const found = new Map<string, string>();
  const add = (message: string | undefined, where: string) => {
    if (message && /[a-z]/i.test(message) && !found.has(message)) found.set(message, where);
  };
  for (const [file, text] of texts) {
    const where = relative(root, file);
    for (const match of text.matchAll(call)) {
      const at = match.index + match[0].length;
      const literal = literalAt(text, at);
      if (literal !== undefined) add(match[1] === "notFound" ? `${literal} not found` : literal, where);
      else {
        const name = identifierAt(text, at);
        if (name && definitions.has(name)) add(definitions.get(name), where);
      }
    }
    for (const match of text.matchAll(OK_MESSAGE)) add(literalAt(text, match.index + match[0].length), where);
  }
  return found;
}
