import { CHANNEL_TYPES, channelTypeName } from "../../shared/channel-types";
import { refuse } from "../errors";
import type { UserRow } from "../../db/schema";
import { requireAdmin } from "../users/admin-access";

/**
 * The channel types the relay can call: the gateway hands in its providers' registry at start-up (createApp,
 * the CLI's service context), as it does the channel-test Probe; the service never imports a provider. Until
 * then (a service used without a gateway) every known type counts.
 */
let served: ReadonlySet<number> | undefined;

export function serveChannelTypes(types: Iterable<number>): void {
  served = new Set(types);
}

const isServed = (type: number): boolean => (served ? served.has(type) : CHANNEL_TYPES.has(type));

/** A channel may be created with, or changed to, a type only when some provider serves it. */
export function servedTypeOf(type: number): number {
  if (!CHANNEL_TYPES.has(type)) refuse("type must be a known channel type");
  if (!isServed(type))
    refuse(`channel type ${channelTypeName(type)} (${type}) has no provider in this gateway: choose another type`);
  return type;
}

/** The types the channel form offers, in number order. */
export function offeredChannelTypes(actor: UserRow): number[] {
  requireAdmin(actor);
  return [...CHANNEL_TYPES.keys()].filter(isServed);
}
