import {
  openaiDialect,
  openaiError,
  startFakeServer,
  type FakeDialect,
  type FakeUpstream,
  type FakeUpstreamOptions,
} from "./fake-upstream";

/** What a vendor's OpenAI-compatible API insists on: where it lives and the key it takes. */
export interface CompatRules {
  /** The vendor's stand-in for OpenAI's /v1 (e.g. /api/paas/v4, /client/v4/accounts/acc-1/ai/v1, "" for none). */
  prefix: string;
  /** Accepted only as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Ollama lists its models at GET /api/tags as {models: [{name}]}. */
  ollamaTags?: true;
  /**
   * Cloudflare lists the account's models at GET /client/v4/accounts/{account}/ai/models/search as
   * {result: [{name}], result_info: {page, per_page, total_pages}}, at most this many a page.
   */
  cloudflareSearchPage?: number;
  /** The vendor has no Responses API (most do not): `{prefix}/responses` is a 404 like any unknown address. */
  noResponses?: true;
  /** Custom (8): the one full address the channel names; every call must come to it. */
  fullPath?: string;
}

/**
 * A vendor's OpenAI-compatible upstream on loopback: a call outside the vendor's prefix is a 404 (as the real
 * host answers an address it does not serve), a call without the Bearer key a 401; inside, the OpenAI fake
 * answers as if the prefix were /v1 (chat, stream with usage, embeddings, the model list).
 */
function compatDialect(rules: CompatRules): FakeDialect {
  const notFound = undefined;
  return {
    model: openaiDialect.model,
    authorized: (request) => request.headers.get("authorization") === `Bearer ${rules.apiKey}`,
    errorBody: openaiError,
    handle(call) {
      const { pathname } = call.url;
      if (rules.ollamaTags && call.request.method === "GET" && pathname === "/api/tags")
        return { json: { models: (call.options.models ?? []).map((name) => ({ name, model: name })) } };
      if (rules.cloudflareSearchPage && call.request.method === "GET" && pathname.endsWith("/ai/models/search")) {
        if (pathname !== `${rules.prefix.replace(/\/ai\/v1$/, "")}/ai/models/search`) return notFound;
        return { json: cloudflareSearch(call.options.models ?? [], call.url.searchParams, rules.cloudflareSearchPage) };
      }
      const rest = rules.fullPath
        ? pathname === rules.fullPath && "/chat/completions"
        : pathname.startsWith(`${rules.prefix}/`) && pathname.slice(rules.prefix.length);
      if (!rest || (rules.noResponses && rest.startsWith("/responses"))) return notFound;
      const url = new URL(call.url);
      url.pathname = `/v1${rest}`;
      return openaiDialect.handle({ ...call, url });
    },
  };
}

/** One page of Cloudflare's model search: `per_page` (capped at the fake's page size) and `page` from 1. */
function cloudflareSearch(models: string[], query: URLSearchParams, cap: number) {
  const size = Math.min(Number(query.get("per_page")) || cap, cap);
  const page = Number(query.get("page")) || 1;
  const result = models
    .slice((page - 1) * size, page * size)
    .map((name) => ({ name, task: { name: "Text Generation" } }));
  const total_pages = Math.max(1, Math.ceil(models.length / size));
  return { success: true, result, result_info: { page, per_page: size, total_pages } };
}

export const startFakeCompat = (rules: CompatRules, options: FakeUpstreamOptions = {}): FakeUpstream =>
  startFakeServer(compatDialect(rules), { ...options, apiKey: rules.apiKey });
