import { ChannelConfigError } from "../../../../shared/channel-config-error";
import { firstKey } from "../channel";
import type { ProviderChannel } from "../types";

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsAccess {
  credentials: AwsCredentials;
  region: string;
}

/** An AWS region name in a known partition (us-east-1, eu-central-2, ap-southeast-4, us-gov-west-1, cn-north-1, …). */
const REGION = /^(us|eu|ap|sa|ca|me|af|il|mx|cn|us-gov)-[a-z]+-\d{1,2}$/;

/**
 * The channel's key is `ACCESS_KEY_ID|SECRET_ACCESS_KEY`, or `…|SESSION_TOKEN` for temporary credentials; the
 * region is the channel's `other`. A third part that is a region name (the `AK|SK|REGION` keys other gateways
 * use) is taken as the region when `other` is blank.
 */
export function awsAccessOf(channel: ProviderChannel): AwsAccess {
  const [accessKeyId = "", secretAccessKey = "", third = "", ...rest] = firstKey(channel)
    .split("|")
    .map((part) => part.trim());
  if (!accessKeyId || !secretAccessKey || rest.length > 0)
    throw new ChannelConfigError(
      "the AWS channel's key must be ACCESS_KEY_ID|SECRET_ACCESS_KEY or ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN",
    );
  const thirdIsRegion = REGION.test(third);
  const region = channel.other.trim() || (thirdIsRegion ? third : "");
  if (!region)
    throw new ChannelConfigError(
      "the AWS channel has no region: set it in the channel's region field (e.g. us-east-1)",
    );
  if (!REGION.test(region))
    throw new ChannelConfigError(
      `the AWS channel's region "${region.slice(0, 40)}" is not an AWS region (e.g. us-east-1)`,
    );
  const sessionToken = third && !thirdIsRegion ? third : undefined;
  return { credentials: { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) }, region };
}
