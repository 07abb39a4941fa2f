import type { ProviderChannel, UpstreamCall } from "../types";

/** Custom (8): the channel's base URL is the whole address, `{model}` in it replaced by the upstream model. */
export const CUSTOM_TYPE = 8;

export const customAddress = (channel: ProviderChannel, call: UpstreamCall): string =>
  channel.base_url.trim().replaceAll("{model}", encodeURIComponent(call.model));
