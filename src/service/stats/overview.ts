import { countLogs, sumConsumption } from "../../db/queries/logs";
import type { ColumnTotals } from "../../db/queries/overview";
import type { UserRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { TodayTally } from "./today";

export type { ColumnTotals } from "../../db/queries/overview";

/** The window of requests and tokens per minute, as the log screen's rpm and tpm. */
export const RATE_WINDOW_SECONDS = 60;
/** The window of the error rate. */
export const ERROR_WINDOW_SECONDS = 3600;
export const TOP_COUNT = 5;

/**
 * The admin's live overview, from the logs table:
 * - requests and tokens per minute: consume rows (type 2) of the last 60 s, and their prompt + completion tokens;
 * - quota spent today: the quota of today's consume rows (local day of the server);
 * - error rate: error rows (type 5) over error + consume rows of the last hour. Error rows are written only
 *   while ErrorLogEnabled is on, so the rate is "not recorded" (null) when it is off;
 * - the 5 models and users with the most quota spent today (by requests when no quota was spent).
 */
export interface Overview {
  at: number;
  requestsPerMinute: number;
  tokensPerMinute: number;
  quotaToday: number;
  requestsToday: number;
  errors: { failed: number; calls: number; rate: number | null; recorded: boolean };
  topModels: ColumnTotals[];
  topUsers: ColumnTotals[];
}

const top = (rows: ColumnTotals[]): ColumnTotals[] =>
  [...rows]
    .sort((a, b) => b.quota - a.quota || b.requests - a.requests || a.name.localeCompare(b.name))
    .slice(0, TOP_COUNT);

const sum = (rows: ColumnTotals[], field: "quota" | "requests"): number =>
  rows.reduce((total, row) => total + row[field], 0);

export interface OverviewFeed {
  read(now?: number): Promise<Overview>;
}

/** A feed of overviews for one admin's screen; each read costs index ranges of the last minute and hour plus what is new today. */
export function openOverview(ctx: ServiceContext, actor: UserRow): OverviewFeed {
  requireAdmin(actor);
  const today = new TodayTally(ctx.db);
  return {
    async read(now = nowSeconds()) {
      const hour = now - ERROR_WINDOW_SECONDS;
      const [minute, failed, consumed, byColumn] = await Promise.all([
        sumConsumption(ctx.db, { type: LogType.Consume, start: now - RATE_WINDOW_SECONDS }),
        countLogs(ctx.db, { type: LogType.Error, start: hour }),
        countLogs(ctx.db, { type: LogType.Consume, start: hour }),
        today.read(now),
      ]);
      const recorded = ctx.options.bool("ErrorLogEnabled");
      const calls = failed + consumed;
      return {
        at: now,
        requestsPerMinute: minute.requests,
        tokensPerMinute: minute.tokens,
        quotaToday: sum(byColumn.model_name, "quota"),
        requestsToday: sum(byColumn.model_name, "requests"),
        errors: { failed, calls, rate: recorded ? (calls > 0 ? failed / calls : 0) : null, recorded },
        topModels: top(byColumn.model_name),
        topUsers: top(byColumn.username),
      };
    },
  };
}
