import type { SourceRow } from "../../db/foreign/source";

/** A number column of a source row (drivers hand out bigint, strings or null), 0 (or `fallback`) when absent. */
export function num(row: SourceRow, column: string, fallback = 0): number {
  const value = row[column];
  if (value === null || value === undefined || value === "") return fallback;
  if (typeof value === "boolean") return value ? 1 : 0;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** A text column of a source row, "" (or `fallback`) when absent. */
export function text(row: SourceRow, column: string, fallback = ""): string {
  const value = row[column];
  if (value === null || value === undefined) return fallback;
  if (value instanceof Date) return String(Math.floor(value.getTime() / 1000));
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return String(value);
}

/** A unix-seconds column that some versions store as a timestamp (GORM's created_at/deleted_at). */
export function seconds(row: SourceRow, column: string): number | null {
  const value = row[column];
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  const n = Number(value);
  if (Number.isFinite(n)) return n;
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? null : Math.floor(parsed / 1000);
}

/** A copy of the column as the target stores it: numbers stay numbers, everything else text. */
export function loose(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return value;
}
