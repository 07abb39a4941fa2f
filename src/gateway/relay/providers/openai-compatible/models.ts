import type { ModelListing, ModelPage, ProviderChannel } from "../types";
import { bearerHeaders } from "./bearer";
import { cloudflareAccountPath, type ModelListStyle, prefixOf, WIRE_RULES } from "./wire-rules";

const LISTING_TYPES = Object.entries(WIRE_RULES)
  .filter(([, rule]) => rule.models)
  .map(([type]) => Number(type));

/** Cloudflare's search pages: the most it hands out at once. */
const CLOUDFLARE_PAGE_SIZE = 100;

/** One page of each list style's reply. */
const PAGES: Record<ModelListStyle, (reply: any) => ModelPage | undefined> = {
  openai: (reply) => (Array.isArray(reply?.data) ? { ids: reply.data.map((m: any) => m?.id) } : undefined),
  "ollama-tags": (reply) => (Array.isArray(reply?.models) ? { ids: reply.models.map((m: any) => m?.name) } : undefined),
  "cloudflare-search": (reply) => {
    if (!Array.isArray(reply?.result)) return undefined;
    const { page, total_pages: pages } = reply.result_info ?? {};
    const more = Number.isInteger(page) && Number.isInteger(pages) && page < pages;
    return { ids: reply.result.map((m: any) => m?.name), next: more ? String(page + 1) : undefined };
  },
};

function addressOf(base: string, channel: ProviderChannel, cursor: string | undefined): string {
  const rule = WIRE_RULES[channel.type]!;
  if (rule.models === "ollama-tags") return `${base}/api/tags`;
  if (rule.models === "cloudflare-search") {
    const query = new URLSearchParams({ per_page: String(CLOUDFLARE_PAGE_SIZE), page: cursor ?? "1" });
    return `${base}${cloudflareAccountPath(channel)}/ai/models/search?${query}`;
  }
  return `${base}${prefixOf(rule, channel)}/models`;
}

/** Every reply shape is tried: a page is read by the first style that recognises it. */
function pageOf(reply: any): ModelPage | undefined {
  for (const page of Object.values(PAGES)) {
    const found = page(reply);
    if (found) return found;
  }
  return undefined;
}

/** GET {base}{prefix}/models with a Bearer key (Ollama: GET {base}/api/tags; Cloudflare: its model search). */
export const vendorModels: ModelListing = {
  types: new Set(LISTING_TYPES),
  url: addressOf,
  headers: bearerHeaders,
  page: pageOf,
};
