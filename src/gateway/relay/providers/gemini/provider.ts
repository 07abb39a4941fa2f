import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mappedEventsAndWhole } from "../event-stream";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { DEFAULT_VERSION, geminiHeaders, geminiVersionOf } from "./address";
import { geminiModels } from "./models";
import { mapGenerateContent } from "./reply";
import { generateContentBody } from "./request";
import { streamMapper } from "./stream";

/**
 * Gemini API: `<base>/<version>/models/<model>:generateContent` (`:streamGenerateContent?alt=sse` for
 * streams), the key in the `x-goog-api-key` header (kept out of the URL); chat only.
 */
export const geminiProvider: Provider = {
  types: [24],
  otherDefault: DEFAULT_VERSION,
  needsImageBytes: true,
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    const version = geminiVersionOf(channel);
    const model = encodeURIComponent(call.model.replace(/^models\//, ""));
    const method = call.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return {
      url: `${channelBaseUrl(channel)}/${version}/models/${model}:${method}`,
      headers: { ...geminiHeaders(channel), "content-type": "application/json" },
      body: JSON.stringify(generateContentBody(json, call.stream)),
    };
  },
  mapResponse: mapGenerateContent,
  ...mappedEventsAndWhole(streamMapper),
  errorOf: openaiErrorOf,
  models: geminiModels,
};
