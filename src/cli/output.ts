import { CommanderError, InvalidArgumentError } from "commander";
import { languageOfLocale, translateMessage } from "../service/i18n/translate";

/** Exit codes: 0 ok, 1 a refusal or failure, 2 a usage error (bad arguments or options). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A command line that cannot be run as written; exits with 2 like commander's own usage errors. */
export class UsageError extends Error {}

export const usage = (message: string): never => {
  throw new UsageError(message);
};

/** One line on stderr and the exit code the error deserves. */
export function report(error: unknown): void {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return;
  }
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
  process.stderr.write(`error: ${translateMessage(message, languageOfLocale(undefined))}\n`);
  process.exitCode = error instanceof UsageError ? EXIT.usage : EXIT.failure;
}

/** Wraps a commander action: any error becomes one line on stderr and an exit code, never a stack trace. */
export const action =
  <A extends unknown[]>(work: (...args: A) => Promise<void> | void) =>
  async (...args: A): Promise<void> => {
    try {
      await work(...args);
    } catch (error) {
      report(error);
    }
  };

/** A commander argument parser for an integer within bounds; anything else is a usage error. */
export const integer =
  (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  (value: string): number => {
    const n = /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError("not an integer.");
    if (n < min || n > max) throw new InvalidArgumentError(`must be between ${min} and ${max}.`);
    return n;
  };

/** A comma-separated list option. */
export const list = (value: string): string[] =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export const printJson = (data: unknown): void => {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
};

/** The machine form with --json, else the human one. */
export function emit(data: unknown, json: boolean | undefined, human: () => void): void {
  if (json) printJson(data);
  else human();
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Right-aligned (numbers). */
  right?: boolean;
  /** Never shortened (times, ids): other columns give way. */
  fixed?: boolean;
}

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return "";
  return String(value).replace(/\s*\n\s*/g, " ");
};

const clip = (text: string, width: number): string => {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
};

/** Column widths that fit `total` characters: the widest column gives way first, down to its header. */
function fitWidths(natural: number[], minimum: number[], total: number): number[] {
  const widths = [...natural];
  const gaps = 2 * (widths.length - 1);
  while (widths.reduce((a, b) => a + b, 0) + gaps > total) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > minimum[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) break;
    widths[widest]!--;
  }
  return widths;
}

export const terminalWidth = (): number => (process.stdout.isTTY ? Math.max(process.stdout.columns || 80, 40) : 80);

/** Rows as an aligned table that fits the terminal (80 columns when not a terminal); long cells end in "…". */
export function formatTable<T>(rows: T[], columns: Column<T>[], width = terminalWidth()): string {
  const cells = rows.map((row) => columns.map((column) => cellText(column.value(row))));
  const natural = columns.map((column, i) =>
    Math.max([...column.header].length, ...cells.map((line) => [...line[i]!].length)),
  );
  const minimum = columns.map((column, i) =>
    column.fixed ? natural[i]! : Math.min(natural[i]!, Math.max([...column.header].length, 6)),
  );
  const widths = fitWidths(natural, minimum, width);
  const line = (texts: string[]) =>
    texts
      .map((text, i) => {
        const cell = clip(text, widths[i]!);
        const pad = " ".repeat(widths[i]! - [...cell].length);
        return columns[i]!.right ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...cells.map(line)].join("\n");
}

export function printTable<T>(rows: T[], columns: Column<T>[]): void {
  process.stdout.write(`${formatTable(rows, columns)}\n`);
}

/** One record as aligned "label  value" lines. */
export function printRecord(record: Record<string, unknown>): void {
  const entries = Object.entries(record);
  const pad = Math.max(...entries.map(([key]) => key.length));
  const text = entries.map(
    ([key, value]) =>
      `${key.padEnd(pad)}  ${cellText(typeof value === "object" && value !== null ? JSON.stringify(value) : value)}`,
  );
  process.stdout.write(`${text.join("\n")}\n`);
}

/** The footer under a page of a listing. */
export function printPageFooter(page: { page: number; page_size: number; total: number; items: unknown[] }): void {
  if (page.total <= page.items.length && page.page === 1) return;
  const first = (page.page - 1) * page.page_size + 1;
  const last = first + page.items.length - 1;
  const shown = page.items.length ? `${first}-${last}` : "none";
  process.stdout.write(`(${shown} of ${page.total}; --page and --page-size show others)\n`);
}

export const say = (text: string): void => {
  process.stdout.write(`${text}\n`);
};
