import type { Exec } from "../../db/exec";
import { BalanceBook } from "../billing/book";
import type { ChangeBus } from "../changes";
import type { Config } from "../config";
import { RelayMetrics } from "../metrics/relay-metrics";
import { QuotaRollup } from "../stats/rollup";
import { RoutingTable } from "./routing-table";
import { TokenCache } from "./token-cache";

export interface RelayState {
  readonly routes: RoutingTable;
  readonly tokens: TokenCache;
  readonly book: BalanceBook;
  /** Consumption per (user, model, hour) for the dashboard, written behind like the book. */
  readonly rollup: QuotaRollup;
  /** The operator's Prometheus metrics (GET /metrics). */
  readonly metrics: RelayMetrics;
  /** Resolves once the routing table has been loaded the first time. */
  readonly ready: Promise<void>;
  /** Writes every settled charge, log row and rollup still queued. */
  close(): Promise<void>;
}

/** `databaseId` names the database in the billing journal, so a journal is only ever replayed into its own. */
export function openRelayState(
  db: Exec & { pool?: { inUse(): number; size: number } },
  changes: ChangeBus,
  config: Config,
  databaseId: string,
): RelayState {
  const routes = new RoutingTable(db, changes);
  const tokens = new TokenCache(db, changes);
  const journal = config.billingJournalDir ? { dir: config.billingJournalDir, databaseId } : undefined;
  const book = new BalanceBook(db, changes, config.billingFlushMs, journal);
  const rollup = new QuotaRollup(db);
  const pool = db.pool;
  const metrics = new RelayMetrics({
    book: () => book.stats(),
    tokenCache: () => tokens,
    pool: () => pool && { inUse: pool.inUse(), size: pool.size },
  });
  book.onFlush = (seconds) => metrics.flushed(seconds);
  const ready = routes.rebuild();
  return {
    routes,
    tokens,
    book,
    rollup,
    metrics,
    ready,
    async close() {
      await ready.catch(() => {});
      routes.close();
      tokens.close();
      await Promise.all([book.close(), rollup.close()]);
    },
  };
}
