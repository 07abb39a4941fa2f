import type { ModelListing } from "../types";
import { bearerHeaders } from "./bearer";
import { prefixOf, WIRE_RULES } from "./wire-rules";

const LISTING_TYPES = Object.entries(WIRE_RULES)
  .filter(([, rule]) => rule.models)
  .map(([type]) => Number(type));

/** OpenAI's {data: [{id}]}, or Ollama's /api/tags {models: [{name}]}: one page. */
function pageOf(reply: any) {
  if (Array.isArray(reply?.data)) return { ids: reply.data.map((m: any) => m?.id) };
  if (Array.isArray(reply?.models)) return { ids: reply.models.map((m: any) => m?.name) };
  return undefined;
}

/** GET {base}{prefix}/models with a Bearer key (Ollama: GET {base}/api/tags). */
export const vendorModels: ModelListing = {
  types: new Set(LISTING_TYPES),
  url(base, channel) {
    const rule = WIRE_RULES[channel.type]!;
    return rule.models === "ollama-tags" ? `${base}/api/tags` : `${base}${prefixOf(rule, channel)}/models`;
  },
  headers: bearerHeaders,
  page: pageOf,
};
