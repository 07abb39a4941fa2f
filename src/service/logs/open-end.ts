import type { Exec } from "../../db/exec";
import { latestLogTime, type LogFilter } from "../../db/queries/logs";
import { nowSeconds } from "../time";

/** How far another instance's clock may run ahead of ours. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * The console asks up to an hour ahead: such an end bounds nothing, and leaving it out spares the
 * database a comparison per row of a range scan. It is left out only when no row, present or about to
 * be written, can be newer.
 */
export async function withoutOpenEnd(db: Exec, f: LogFilter): Promise<LogFilter> {
  if (f.end === undefined || f.end < nowSeconds() + CLOCK_SKEW_SECONDS) return f;
  if (f.end < (await latestLogTime(db)) + CLOCK_SKEW_SECONDS) return f;
  const { end: _open, ...bounded } = f;
  return bounded;
}
