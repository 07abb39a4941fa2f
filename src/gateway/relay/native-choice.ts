import type { RouteChannel } from "../../service/relay/routing-table";
import type { InboundCall } from "./inbound-request";

type ChannelRow = RouteChannel["row"];

/**
 * Channels found lacking a dialect's endpoint, by dialect and channel id, with the channel as it was then: a
 * channel edited since (address, key, type, settings) is asked again.
 */
const lacking = new Map<string, string>();

const memoryKey = (inbound: InboundCall, row: ChannelRow) => `${inbound.dialect.name}\u0000${row.id}`;
const fingerprint = (row: ChannelRow) => JSON.stringify([row.type, row.base_url, row.key, row.other, row.setting]);

const speaks = (inbound: InboundCall, family: string) =>
  (inbound.dialect.nativeFamilies ?? [inbound.dialect.nativeFamily]).includes(family);

/** Whether the call goes untranslated to this channel: its family speaks the dialect and the channel serves it. */
export function passesThrough(
  family: string,
  inbound: InboundCall | undefined,
  row: ChannelRow,
): inbound is InboundCall {
  if (inbound === undefined || !speaks(inbound, family)) return false;
  const fallback = inbound.dialect.native.fallback;
  if (!fallback) return true;
  const mode = fallback.mode(row.setting);
  if (mode !== "auto") return mode === "native";
  return lacking.get(memoryKey(inbound, row)) !== fingerprint(row);
}

/**
 * Whether a pass-through that failed with `status` is tried again translated on the same channel: the upstream
 * lacks the dialect's endpoint and the channel's setting leaves the choice to the gateway. The channel is
 * remembered as lacking it. A 404 that names the model (OpenAI's model_not_found) is the endpoint answering.
 */
export function translatesAfter(inbound: InboundCall, row: ChannelRow, status: number, code?: string): boolean {
  const fallback = inbound.dialect.native.fallback;
  if (!fallback?.lacksEndpoint(status) || code === "model_not_found") return false;
  if (fallback.mode(row.setting) !== "auto") return false;
  lacking.set(memoryKey(inbound, row), fingerprint(row));
  return true;
}
