import type { ModelListing } from "../types";
import { bearerHeaders } from "./bearer";

/** GET {base}/v1/models with a Bearer key: one page, {data: [{id}]}. */
export const openaiModels: ModelListing = {
  url: (base) => `${base}/v1/models`,
  headers: bearerHeaders,
  page: (reply) => (Array.isArray(reply?.data) ? { ids: reply.data.map((m: any) => m?.id) } : undefined),
};
