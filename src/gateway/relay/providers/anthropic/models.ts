import type { ModelListing } from "../types";
import { anthropicHeaders } from "./headers";

/** What one page may hold at the most. */
const PAGE_SIZE = "1000";

/** GET {base}/v1/models: {data: [{id}], has_more, last_id}; the next page is ?after_id={last_id}. */
export const anthropicModels: ModelListing = {
  url: (base, _channel, after) =>
    `${base}/v1/models?${new URLSearchParams({ ...(after && { after_id: after }), limit: PAGE_SIZE })}`,
  headers: anthropicHeaders,
  page: (reply) =>
    Array.isArray(reply?.data)
      ? { ids: reply.data.map((m: any) => m?.id), next: reply.has_more === true ? reply.last_id : undefined }
      : undefined,
};
