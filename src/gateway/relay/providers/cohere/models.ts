import { bearerHeaders } from "../openai-compatible/bearer";
import type { ModelListing } from "../types";

/** GET {base}/v1/models: {models: [{name}], next_page_token}; the next page is ?page_token={next_page_token}. */
export const cohereModels: ModelListing = {
  url: (base, _channel, token) =>
    `${base}/v1/models?${new URLSearchParams({ page_size: "1000", ...(token && { page_token: token }) })}`,
  headers: bearerHeaders,
  page: (reply) =>
    Array.isArray(reply?.models)
      ? { ids: reply.models.map((m: any) => m?.name), next: reply.next_page_token || undefined }
      : undefined,
};
