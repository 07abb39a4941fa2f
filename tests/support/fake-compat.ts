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
      const rest = rules.fullPath
        ? pathname === rules.fullPath && "/chat/completions"
        : pathname.startsWith(`${rules.prefix}/`) && pathname.slice(rules.prefix.length);
      if (!rest) return notFound;
      const url = new URL(call.url);
      url.pathname = `/v1${rest}`;
      return openaiDialect.handle({ ...call, url });
    },
  };
}

export const startFakeCompat = (rules: CompatRules, options: FakeUpstreamOptions = {}): FakeUpstream =>
  startFakeServer(compatDialect(rules), { ...options, apiKey: rules.apiKey });
