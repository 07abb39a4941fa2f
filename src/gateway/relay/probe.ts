import type { ChannelRow } from "../../db/schema";
import type { ServiceContext } from "../../service/context";
import type { Probe } from "../../service/relay/channel-tests";
import { mapModel, parseMapping } from "../../service/relay/model-mapping";
import { upstreamGate } from "../../service/egress/site-gate";
import { attemptUpstream } from "./attempt";

/** A channel test gives up after a minute, or the relay's own timeout when that is shorter. */
const PROBE_TIMEOUT_MS = 60_000;

/** The channel test's request, sent by the same code as real traffic (provider, mapping, status mapping, masking). */
export function relayProbe(ctx: ServiceContext): Probe {
  return async (row: ChannelRow, model: string) => {
    const channel = {
      row,
      modelMapping: parseMapping(row.model_mapping),
      statusCodeMapping: parseMapping(row.status_code_mapping),
    };
    const upstreamModel = mapModel(channel.modelMapping, model);
    const body = JSON.stringify({ model: upstreamModel, messages: [{ role: "user", content: "hi" }], max_tokens: 16 });
    const started = performance.now();
    const call = {
      path: "/v1/chat/completions",
      model: upstreamModel,
      body,
      contentType: "application/json",
      stream: false,
    };
    const result = await attemptUpstream(
      channel,
      call,
      Math.min(ctx.config.relayTimeoutMs || PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS),
      upstreamGate(ctx.options),
    );
    if (result.ok) await result.response.bytes();
    const ms = Math.round(performance.now() - started);
    return result.ok ? { ok: true, ms } : { ok: false, ms, failure: result.failure };
  };
}
