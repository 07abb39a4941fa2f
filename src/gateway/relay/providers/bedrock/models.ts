import type { ModelListing, ProviderChannel } from "../types";
import { controlBase } from "./address";
import { awsAccessOf } from "./credentials";
import { signedHeaders } from "./sign";

/** GET {control plane}/foundation-models (signed, service bedrock): {modelSummaries: [{modelId}]}, one page. */
export const bedrockModels: ModelListing = {
  url: (_base, channel: ProviderChannel) => `${controlBase(channel, awsAccessOf(channel).region)}/foundation-models`,
  headers: (channel, url) => signedHeaders(url!, "GET", "bedrock", awsAccessOf(channel)),
  page: (reply) =>
    Array.isArray(reply?.modelSummaries) ? { ids: reply.modelSummaries.map((m: any) => m?.modelId) } : undefined,
};
