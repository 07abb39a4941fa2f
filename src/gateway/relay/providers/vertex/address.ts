import { ChannelConfigError } from "../../../../shared/channel-config-error";
import { isVertexRegion } from "../../../../shared/service-account";
import type { ProviderChannel } from "../types";

/** The region of a channel whose `other` is blank (spec §2). */
export const DEFAULT_REGION = "us-central1";

/** A Vertex channel's `other` names its region: `global` or a Google Cloud region. */
export function regionOf(channel: ProviderChannel): string {
  const region = channel.other?.trim() || DEFAULT_REGION;
  if (!isVertexRegion(region))
    throw new ChannelConfigError(
      `the channel's region "${region.slice(0, 64)}" is not a Vertex AI region (e.g. us-central1, europe-west4, global)`,
    );
  return region;
}

/** `https://{region}-aiplatform.googleapis.com` (`aiplatform.googleapis.com` for global); the base URL overrides. */
export function hostOf(channel: ProviderChannel, region: string): string {
  if (channel.base_url) return channel.base_url.replace(/\/+$/, "");
  return `https://${region === "global" ? "" : `${region}-`}aiplatform.googleapis.com`;
}

/** `{host}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}` */
export function modelAddress(channel: ProviderChannel, project: string, publisher: string, model: string): string {
  const region = regionOf(channel);
  // Vertex's model versions are written with "@" (claude-sonnet-4@20250514), as its own clients send them.
  const path = [project, region, publisher, model].map((part) => encodeURIComponent(part).replace(/%40/g, "@"));
  return `${hostOf(channel, region)}/v1/projects/${path[0]}/locations/${path[1]}/publishers/${path[2]}/models/${path[3]}`;
}
