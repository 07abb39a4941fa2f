import { existingChannelIds } from "../../db/queries/channels";
import { ChannelStatus, type ChannelStatusValue } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { nowSeconds } from "../time";
import { patchChannels } from "./write";

/** other_info holds why and when the server disabled a channel; any other status clears it. */
export const statusInfo = (status: number, reason?: string): string =>
  status === ChannelStatus.AutoDisabled && reason
    ? JSON.stringify({ status_reason: reason, status_time: nowSeconds() })
    : "";

/**
 * Sets a channel's status (and its abilities' `enabled`) with the reason for an automatic disable;
 * for the relay's auto-disable and auto-enable as much as for admins. Answers whether the channel exists.
 */
export async function setChannelStatus(
  ctx: ServiceContext,
  id: number,
  status: ChannelStatusValue,
  reason?: string,
): Promise<boolean> {
  const patch = { status, other_info: statusInfo(status, reason) };
  return (await patchChannels(ctx, (tx) => existingChannelIds(tx, [id]), patch)).length > 0;
}
