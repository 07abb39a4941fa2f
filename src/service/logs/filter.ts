import type { LogFilter } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import { refuse } from "../errors";
import { timeRangeOf } from "../records/time-range";
import { requireAdmin } from "../users/admin-access";

/** "all": an admin's view of everyone's rows, channel included; "own": the caller's rows, without channel details. */
export type LogScope = "all" | "own";

export type LogQuery = Record<string, unknown>;

const LOG_TYPES = new Set<number>(Object.values(LogType));
export const BAD_TYPE = `type must be one of ${[...LOG_TYPES].join(", ")} (0 = all)`;
export const BAD_CHANNEL = "channel must be a channel id (0 = all)";

/** A whole number ≥ 0 from a query value; absent, blank and 0 mean "any". */
function optionalId(value: unknown, refusal: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return refuse(refusal, 400);
  return n === 0 ? undefined : n;
}

/** A time of 0 means "not set", as in the dialect. */
const unsetIfZero = (value: unknown) =>
  value === 0 || (typeof value === "string" && value.trim() === "0") ? undefined : value;

/** An exact-match text filter: trimmed; absent or blank means "any". */
function exactText(query: LogQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return refuse(`${name} must be text`, 400);
  return value.trim() || undefined;
}

/**
 * The filter of a log call (spec §7 'Logs'): type, username, token_name, model_name, start_timestamp and
 * end_timestamp (inclusive; 0 = not set), channel and group. Checks the caller may use the scope; in the
 * "own" scope the rows are always the caller's and username and channel are not taken.
 */
export function logFilterOf(actor: UserRow, scope: LogScope, query: LogQuery): LogFilter {
  if (scope === "all") requireAdmin(actor);
  const type = optionalId(query.type, BAD_TYPE);
  if (type !== undefined && !LOG_TYPES.has(type)) refuse(BAD_TYPE, 400);
  const filter: LogFilter = {
    type,
    tokenName: exactText(query, "token_name"),
    modelName: exactText(query, "model_name"),
    group: exactText(query, "group"),
    ...timeRangeOf({
      start_timestamp: unsetIfZero(query.start_timestamp),
      end_timestamp: unsetIfZero(query.end_timestamp),
    }),
  };
  if (scope === "own") return { ...filter, userId: actor.id };
  return { ...filter, username: exactText(query, "username"), channelId: optionalId(query.channel, BAD_CHANNEL) };
}
