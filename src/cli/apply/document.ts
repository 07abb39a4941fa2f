import { refuse } from "../../service/errors";
import type { Entry } from "./plan";

/** The file `apply` reads and `export` writes (YAML or JSON): sections in the order they are applied. */
export interface ConfigDocument {
  version?: number;
  options?: Record<string, unknown>;
  users?: Entry[];
  channels?: Entry[];
  tokens?: Entry[];
  redemptions?: Entry[];
}

export const FORMAT_VERSION = 1;
const LIST_SECTIONS = ["users", "channels", "tokens", "redemptions"] as const;
type ListSection = (typeof LIST_SECTIONS)[number];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0];

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return refuse(`${path}: not valid JSON: ${firstLine(error)}`);
  }
}

/**
 * Bun's built-in YAML parser reads a 1000-channel file in tens of milliseconds (the yaml package takes
 * seconds) but does not say where an error is; for that, the yaml package reads the refused file again.
 */
async function parseYaml(text: string, path: string): Promise<unknown> {
  try {
    return Bun.YAML.parse(text);
  } catch (error) {
    const { parse } = await import("yaml");
    try {
      parse(text);
    } catch (located) {
      return refuse(`${path}: not valid YAML: ${firstLine(located)}`);
    }
    return refuse(`${path}: not valid YAML: ${firstLine(error)}`);
  }
}

/** Parses and checks the outline: known sections, a mapping of options, lists of mappings. */
export async function parseDocument(text: string, path: string): Promise<ConfigDocument> {
  const data = path.toLowerCase().endsWith(".json") ? parseJson(text, path) : await parseYaml(text, path);
  if (data === null || data === undefined) return {};
  if (!isRecord(data))
    refuse(`${path}: the file must be a mapping of sections (options, users, channels, tokens, redemptions)`);
  const document = data as Record<string, unknown>;
  for (const key of Object.keys(document)) {
    if (!["version", "options", ...LIST_SECTIONS].includes(key)) refuse(`${path}: unknown section "${key}"`);
  }
  if (document.version !== undefined && document.version !== FORMAT_VERSION)
    refuse(`${path}: version must be ${FORMAT_VERSION}`);
  if (document.options !== undefined && document.options !== null && !isRecord(document.options))
    refuse(`${path}: options must be a mapping of option keys to values`);
  for (const section of LIST_SECTIONS) {
    const entries = document[section];
    if (entries === undefined || entries === null) continue;
    if (!Array.isArray(entries) || !entries.every(isRecord)) refuse(`${path}: ${section} must be a list of mappings`);
  }
  return document as ConfigDocument;
}

export interface EntryRules {
  fields: readonly string[];
  /** The fields of the natural key, all required. */
  key: readonly string[];
}

/** How an entry is named in plans and refusals: its natural key. */
export const keyText = (entry: Entry, key: readonly string[]): string =>
  key.map((field) => String(entry[field] ?? "")).join("/");

/** Every entry names only known fields and its whole natural key, and no two entries share a key. */
export function checkEntries(section: ListSection, entries: Entry[], rules: EntryRules): void {
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    for (const field of rules.key) {
      const value = entry[field];
      if (typeof value !== "string" || !value.trim()) refuse(`${section}[${i}]: ${field} is required`);
    }
    const name = keyText(entry, rules.key);
    const unknown = Object.keys(entry).find((field) => !rules.fields.includes(field));
    if (unknown) refuse(`${section} "${name}": unknown field "${unknown}"`);
    if (seen.has(name)) refuse(`${section} "${name}" appears twice`);
    seen.add(name);
  });
}

export type Format = "yaml" | "json";

export function formatDocument(document: ConfigDocument, format: Format): string {
  const shown = Object.fromEntries(Object.entries(document).filter(([, value]) => value !== undefined));
  if (format === "json") return `${JSON.stringify(shown, null, 2)}\n`;
  const header =
    "# Tollgate configuration: apply with `tollgate apply -f <file>` (add --dry-run to see the plan first)\n";
  return `${header}${Bun.YAML.stringify(shown, null, 2)}\n`;
}
