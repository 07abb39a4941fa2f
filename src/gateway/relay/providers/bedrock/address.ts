import type { ProviderChannel } from "../types";

/** The runtime API of the region, unless the channel names its own address (a proxy, a VPC endpoint, a test fake). */
export const runtimeBase = (channel: ProviderChannel, region: string): string =>
  channel.base_url.replace(/\/+$/, "") || `https://bedrock-runtime.${region}.amazonaws.com`;

/** The control plane (model list) of the region; a channel's own address serves both. */
export const controlBase = (channel: ProviderChannel, region: string): string =>
  channel.base_url.replace(/\/+$/, "") || `https://bedrock.${region}.amazonaws.com`;

/** `/model/{id}/{action}` with the id percent-encoded (`:` in `-v1:0`, `/` in ARNs). */
export const modelPath = (modelId: string, action: string): string => `/model/${encodeURIComponent(modelId)}/${action}`;
