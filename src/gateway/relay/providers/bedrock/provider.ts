import { mapMessage } from "../anthropic/reply";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { modelPath, runtimeBase } from "./address";
import { converseBody } from "./converse-request";
import { mapConverse } from "./converse-reply";
import { converseStreamMapper } from "./converse-stream";
import { awsAccessOf } from "./credentials";
import { bedrockErrorOf } from "./errors";
import { mapAwsEventStream } from "./event-frames";
import { invokeBody } from "./invoke-body";
import { invokeStreamMapper } from "./invoke-stream";
import { bedrockModelId, isClaude } from "./model-ids";
import { bedrockModels } from "./models";
import { signedHeaders } from "./sign";

/**
 * AWS Bedrock runtime, SigV4-signed with the channel's access key (region from `other`): Claude models through
 * invoke / invoke-with-response-stream with Anthropic's Messages body, every other model through converse /
 * converse-stream. Streams arrive in AWS's binary event-stream framing. Chat only.
 */
export const bedrockProvider: Provider = {
  types: [33],
  needsImageBytes: true,
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const access = awsAccessOf(channel);
    const json = call.json ?? JSON.parse(String(call.body));
    const id = bedrockModelId(call.model);
    const claude = isClaude(id);
    const action = claude
      ? call.stream
        ? "invoke-with-response-stream"
        : "invoke"
      : call.stream
        ? "converse-stream"
        : "converse";
    const url = runtimeBase(channel, access.region) + modelPath(id, action);
    const body = JSON.stringify(claude ? invokeBody(json) : converseBody(json));
    return { url, headers: signedHeaders(url, "POST", "bedrock", access, body), body };
  },
  mapResponse: (reply, model) => (reply?.output ? mapConverse(reply, model) : mapMessage(reply, model)),
  mapStream: (upstream, model, wording) =>
    mapAwsEventStream(
      upstream,
      isClaude(bedrockModelId(model)) ? invokeStreamMapper(model, wording) : converseStreamMapper(model),
    ),
  streamContentType: "application/vnd.amazon.eventstream",
  errorOf: bedrockErrorOf,
  models: bedrockModels,
};
