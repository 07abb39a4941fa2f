import { serviceAccountOf } from "../../../../shared/service-account";
import { openaiErrorOf } from "../error-shape";
import { mappedEvents } from "../event-stream";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { DEFAULT_REGION, modelAddress } from "./address";
import { serviceAccountGrant } from "./grant";
import { vertexModels } from "./models";
import { publisherOf } from "./publisher";

/**
 * Vertex AI: the key is a service account's JSON key, exchanged for an access token (`grant`) sent as a bearer
 * token; `other` is the region. Gemini models through generateContent, Claude models through rawPredict with the
 * Anthropic Messages body; chat only.
 */
export const vertexProvider: Provider = {
  types: [41],
  otherDefault: DEFAULT_REGION,
  endpoints: new Set(["chat"]),
  grant: serviceAccountGrant,
  models: vertexModels,
  request(channel: ProviderChannel, call: UpstreamCall, token?: string) {
    const json = call.json ?? JSON.parse(String(call.body));
    const publisher = publisherOf(call.model);
    const { project_id } = serviceAccountOf(channel.key);
    return {
      url: `${modelAddress(channel, project_id, publisher.name, call.model)}:${publisher.method(call.stream)}`,
      headers: { authorization: `Bearer ${token ?? ""}`, "content-type": "application/json" },
      body: JSON.stringify(publisher.body(json, call.model, call.stream)),
    };
  },
  mapResponse: (reply, model) => publisherOf(model).mapResponse(reply, model),
  ...mappedEvents((model, wording) => publisherOf(model).streamMapper(model, wording)),
  errorOf: openaiErrorOf,
};
