import { invalidRequest } from "../../../../shared/relay-error";
import { appConversation, transcriptOf } from "../app-chat/query";
import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mappedEvents } from "../event-stream";
import { bearerHeaders } from "../openai-compatible/bearer";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { mapLibraryAnswer } from "./answer";
import { libraryStreamMapper } from "./stream";

const FAMILY = "AIProxy Library";

/** The ask body: the library from the channel's `other`; the earlier turns before the question as a transcript. */
function askBody(json: Record<string, any>, model: string, libraryId: string, stream: boolean) {
  if (!libraryId)
    throw invalidRequest(
      "the AIProxy Library channel names no knowledge base id (the channel's knowledge base ID field)",
    );
  const conversation = appConversation(json, FAMILY);
  const before = transcriptOf(conversation);
  const query = before ? `${before}\n\nuser: ${conversation.query}` : conversation.query;
  return { model, query, libraryId, stream };
}

/** AIProxy's knowledge-base API (type 21): `<base>/api/library/ask`, bearer key, the library id in `other`. */
export const aiproxyLibraryProvider: Provider = {
  types: [21],
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    return {
      url: `${channelBaseUrl(channel)}/api/library/ask`,
      headers: { ...bearerHeaders(channel), "content-type": "application/json" },
      body: JSON.stringify(askBody(json, call.model, channel.other.trim(), call.stream)),
    };
  },
  mapResponse: mapLibraryAnswer,
  ...mappedEvents(libraryStreamMapper),
  errorOf: openaiErrorOf,
};
