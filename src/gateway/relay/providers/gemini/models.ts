import type { ModelListing } from "../types";
import { geminiHeaders, geminiVersionOf } from "./address";

/** What one page may hold at the most. */
const PAGE_SIZE = "1000";

/** GET {base}/{version}/models: {models: [{name: "models/…"}], nextPageToken}; the next page is ?pageToken=…. */
export const geminiModels: ModelListing = {
  url: (base, channel, token) =>
    `${base}/${geminiVersionOf(channel)}/models?${new URLSearchParams({ pageSize: PAGE_SIZE, ...(token && { pageToken: token }) })}`,
  headers: geminiHeaders,
  page: (reply) =>
    Array.isArray(reply?.models)
      ? {
          ids: reply.models.map((m: any) =>
            typeof m?.name === "string" ? m.name.replace(/^models\//, "") : undefined,
          ),
          next: reply.nextPageToken,
        }
      : undefined,
};
