import { sumConsumption, sumQuota } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { nowSeconds } from "../time";
import { logFilterOf, type LogQuery, type LogScope } from "./filter";
import { withoutOpenEnd } from "./open-end";

export const RATE_WINDOW_SECONDS = 60;

export type LogStat = {
  /** Quota consumed by the matching consume rows in the time range. */
  quota: number;
  /** Consume rows of the last 60 s matching the filters (the time range aside). */
  rpm: number;
  /** Their prompt + completion tokens. */
  tpm: number;
};

/** The log screen's summary: consumed quota over the filters, and requests and tokens per minute right now. */
export async function logStat(
  ctx: ServiceContext,
  actor: UserRow,
  scope: LogScope,
  query: LogQuery,
  now = nowSeconds(),
): Promise<LogStat> {
  const consume = { ...logFilterOf(actor, scope, query), type: LogType.Consume };
  const quota = await sumQuota(ctx.db, await withoutOpenEnd(ctx.db, consume));
  const recent = await sumConsumption(ctx.db, { ...consume, start: now - RATE_WINDOW_SECONDS, end: undefined });
  return { quota, rpm: recent.requests, tpm: recent.tokens };
}
