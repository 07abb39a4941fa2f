/** Reading request input in the services: ids, integers, texts and lengths, each refused with a clear message. */
import { refuse } from "./errors";

/** A request body or query as it arrives: anything may be missing or of the wrong type. */
export type Input = Record<string, unknown>;

/** A JSON number, or a string of digits (path and query values), that is a safe integer. */
function asInteger(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

export function idOf(value: unknown): number {
  const id = asInteger(value);
  return id !== undefined && id > 0 ? id : refuse("id must be a positive integer");
}

/** A per-minute limit: a whole number ≥ 0, 0 meaning none. */
export function limitOf(value: unknown, name: string): number {
  const n = integerOf(value, name);
  return n < 0 ? refuse(`${name} must be 0 (no limit) or more`) : n;
}

export const integerOf = (value: unknown, name: string): number =>
  asInteger(value) ?? refuse(`${name} must be an integer`);

/** A text field: undefined when absent or null, refused when of another type. */
export function textOf(input: Input, name: string): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : refuse(`${name} must be a string`);
}

export function withinLength(text: string, max: number, label: string): string {
  return [...text].length > max ? refuse(`${label} must be at most ${max} characters`) : text;
}
