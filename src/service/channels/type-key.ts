import { createPrivateKey } from "node:crypto";
import { CHANNEL_TYPES } from "../../shared/channel-types";
import { isVertexRegion, ServiceAccountKeyError, serviceAccountOf } from "../../shared/service-account";
import { refuse } from "../errors";
import type { ChannelFields } from "./fields";

function isRsaKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === "rsa";
  } catch {
    return false;
  }
}

/**
 * A channel whose type takes a service account's JSON key must hold a usable one, and a region (when set) must
 * be one; the refusal names what is wrong, never the key.
 */
export function refuseUnusableKey(channel: ChannelFields): void {
  const facts = CHANNEL_TYPES.get(channel.type ?? -1);
  if (facts?.keyIsServiceAccount && channel.key !== undefined) {
    try {
      const { private_key } = serviceAccountOf(channel.key);
      if (!isRsaKey(private_key))
        throw new ServiceAccountKeyError("private_key could not be read as an RSA private key");
    } catch (error) {
      if (error instanceof ServiceAccountKeyError) refuse(error.message);
      throw error;
    }
  }
  const region = channel.other?.trim();
  if (facts?.keyIsServiceAccount && facts.other?.meaning === "region" && region && !isVertexRegion(region))
    refuse(`region "${region.slice(0, 64)}" is not a Vertex AI region (e.g. us-central1, europe-west4, global)`);
}
