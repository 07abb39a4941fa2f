import { keysOf, multiKeyInfoOf, pickKey } from "../../service/channels/multi-key";
import { overridesOf } from "../../service/relay/channel-overrides";
import type { ChannelRow } from "../../db/schema";
import type { ServiceContext } from "../../service/context";
import type { Probe } from "../../service/relay/channel-tests";
import { mapModel, parseMapping } from "../../service/relay/model-mapping";
import { upstreamGate } from "../../service/egress/site-gate";
import { channelTypeName } from "../../shared/channel-types";
import type { EndpointKind } from "../../shared/endpoint-kind";
import { attemptUpstream } from "./attempt";
import { providerFor } from "./providers/registry";
import type { Provider } from "./providers/types";

/** A channel test gives up after a minute, or the relay's own timeout when that is shorter. */
const PROBE_TIMEOUT_MS = 60_000;

/** The smallest call of a kind the channel's family serves: chat, else embeddings, else rerank. */
function probeFor(provider: Provider, model: string): { path: string; json: Record<string, unknown> } {
  const serves = (kind: EndpointKind) => !provider.endpoints || provider.endpoints.has(kind);
  if (serves("chat"))
    return {
      path: "/v1/chat/completions",
      json: { model, messages: [{ role: "user", content: "hi" }], max_tokens: 16 },
    };
  if (serves("embeddings")) return { path: "/v1/embeddings", json: { model, input: "hi" } };
  return { path: "/v1/rerank", json: { model, query: "hi", documents: ["hi"] } };
}

/** The channel test's request, sent by the same code as real traffic (provider, mapping, status mapping, masking). */
export function relayProbe(ctx: ServiceContext): Probe {
  return async (row: ChannelRow, model: string) => {
    // A multi-key channel is tested with one of its enabled keys, as a call would use it.
    const info = multiKeyInfoOf(row);
    const picked = info && pickKey(row.id, info, keysOf(row.key));
    const channel = {
      row: picked ? { ...row, key: picked.key } : row,
      modelMapping: parseMapping(row.model_mapping),
      statusCodeMapping: parseMapping(row.status_code_mapping),
      overrides: overridesOf(row),
    };
    const provider = providerFor(row.type);
    // A task family has no small call to try (compat §4.7: such channels are not tested); nothing is judged of it.
    if (provider.tasks)
      return {
        ok: false,
        ms: 0,
        failure: { status: 0, message: `${channelTypeName(row.type)} channel test is not supported` },
      };
    const upstreamModel = mapModel(channel.modelMapping, model);
    const { path, json } = probeFor(provider, upstreamModel);
    const started = performance.now();
    const call = {
      path,
      model: upstreamModel,
      body: JSON.stringify(json),
      contentType: "application/json",
      stream: false,
      json,
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
