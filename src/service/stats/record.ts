import type { ServiceContext } from "../context";
import type { Consumption } from "./rollup";

/** Counts a settled call into the dashboard rollups, when DataExportEnabled; written every DataExportInterval minutes. */
export function recordConsumption(ctx: ServiceContext, c: Consumption): void {
  if (!ctx.options.bool("DataExportEnabled")) return;
  ctx.relay.rollup.add(c, ctx.options.num("DataExportInterval") * 60_000);
}
