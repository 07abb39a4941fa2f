import type { UserRow } from "../../service/users/directory";
import type { ServiceContext } from "../../service/context";
import { ServiceError } from "../../service/errors";

/** One changed field: a secret names itself only, never its value. */
export interface Change {
  field: string;
  from?: unknown;
  to?: unknown;
}

export type Action = "create" | "update" | "unchanged";

/** What apply does to one object of the file. */
export interface Step {
  kind: "option" | "user" | "channel" | "token" | "redemption";
  name: string;
  action: Action;
  changes: Change[];
  note?: string;
  /** Does it; absent when unchanged. */
  run?: () => Promise<void>;
}

export interface Planner {
  ctx: ServiceContext;
  root: UserRow;
}

/** A file entry as parsed: field → value. */
export type Entry = Record<string, unknown>;

/** Field values compare by their JSON text, so lists and objects compare by content. */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes from `current` to `desired`, for the fields `desired` sets (fields left out are not managed);
 * `secret` fields are named without their values; `equal` overrides the comparison of a field.
 */
export function diff(
  desired: Record<string, unknown>,
  current: Record<string, unknown>,
  secret: readonly string[] = [],
  equal: Record<string, (want: unknown, have: unknown) => boolean> = {},
): Change[] {
  const changes: Change[] = [];
  for (const [field, want] of Object.entries(desired)) {
    if (want === undefined) continue;
    const have = current[field];
    if ((equal[field] ?? same)(want, have)) continue;
    changes.push(secret.includes(field) ? { field } : { field, from: have, to: want });
  }
  return changes;
}

/** A step for an object that exists: unchanged when nothing differs. */
export function step(
  kind: Step["kind"],
  name: string,
  action: Action,
  changes: Change[],
  run: () => Promise<void>,
  note?: string,
): Step {
  if (action === "update" && changes.length === 0) return { kind, name, action: "unchanged", changes, note };
  return { kind, name, action, changes, run, note };
}

/** Runs `read`, prefixing a refusal with where in the file it comes from. */
export async function at<T>(where: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ServiceError) throw new ServiceError(`${where}: ${error.message}`, error.status);
    throw error;
  }
}

/** Just the fields of `input` that changed, for an update call. */
export const changedOnly = (input: Record<string, unknown>, changes: Change[]): Record<string, unknown> =>
  Object.fromEntries(changes.filter((c) => c.field in input).map((c) => [c.field, input[c.field]]));

/** Drops undefined values. */
export const defined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));

/** The stored JSON text of an object-valued field given as an object or as text. */
export const jsonText = (value: unknown): unknown =>
  value !== null && typeof value === "object" ? JSON.stringify(value) : value;

/** JSON texts compare by what they parse to; anything else by its text. */
export function sameJson(a: unknown, b: unknown): boolean {
  const parse = (value: unknown) => {
    if (typeof value !== "string" || value.trim() === "") return value ?? "";
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  };
  return same(parse(a), parse(b));
}

/** An object-valued field for the file: parsed when it is JSON text, else as stored. */
export function jsonValue(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
