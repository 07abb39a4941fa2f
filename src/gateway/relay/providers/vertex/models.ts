import type { ModelListing } from "../types";
import { hostOf, regionOf } from "./address";

/** What one page may hold at the most. */
const PAGE_SIZE = "100";
/** The publishers whose models a Vertex channel serves, listed in this order. */
const PUBLISHERS = ["google", "anthropic"] as const;

/**
 * The cursor names the publisher and its page token (`google:<token>`, `anthropic:`): the publishers' lists are
 * read one after the other as one paged list.
 */
function cursorOf(cursor: string | undefined): { publisher: string; token: string } {
  const [publisher = PUBLISHERS[0], token = ""] = (cursor ?? "").split(/:(.*)/s);
  return { publisher: publisher || PUBLISHERS[0], token };
}

const publisherOfName = (name: unknown) => /^publishers\/([^/]+)\//.exec(String(name))?.[1];

/**
 * Model Garden's publisher models: GET {host}/v1beta1/publishers/{publisher}/models → {publisherModels:
 * [{name: "publishers/google/models/gemini-2.5-flash"}], nextPageToken}, with the minted bearer token.
 */
export const vertexModels: ModelListing = {
  url(_base, channel, cursor) {
    const { publisher, token } = cursorOf(cursor);
    const query = new URLSearchParams({ pageSize: PAGE_SIZE, ...(token && { pageToken: token }) });
    return `${hostOf(channel, regionOf(channel))}/v1beta1/publishers/${publisher}/models?${query}`;
  },
  headers: (_channel, _url, token) => ({ authorization: `Bearer ${token ?? ""}` }),
  page(reply) {
    if (typeof reply !== "object" || reply === null || Array.isArray(reply)) return undefined;
    const models: any[] = Array.isArray(reply.publisherModels) ? reply.publisherModels : [];
    const publisher = publisherOfName(models[0]?.name) ?? PUBLISHERS.at(-1);
    const following = PUBLISHERS[PUBLISHERS.indexOf(publisher as never) + 1];
    const next =
      typeof reply.nextPageToken === "string" && reply.nextPageToken
        ? `${publisher}:${reply.nextPageToken}`
        : following && `${following}:`;
    return { ids: models.map((m) => String(m?.name ?? "").replace(/^publishers\/[^/]+\/models\//, "")), next };
  },
};
