import type { UpstreamGate } from "../egress/gate";

/** A channel as its upstream calls read it: a stored row, or the fields of a channel not yet saved. */
export interface UpstreamChannel {
  readonly type: number;
  readonly key: string;
  readonly base_url: string;
  readonly other: string;
}

/**
 * A channel's upstream, asked in its own dialect. The gateway implements it with the relay's providers and
 * hands it in at start-up (the service never imports a provider), as it does the channel-test Probe. Calls go
 * to addresses `gate` allows; failures are ServiceErrors that tell neither the key nor the address.
 */
export interface ChannelUpstream {
  /** The model ids the upstream lists, in its order, without repeats. */
  listModels(channel: UpstreamChannel, gate: UpstreamGate): Promise<string[]>;
  /** The account's balance in USD, as the upstream reports it. */
  queryBalance(channel: UpstreamChannel, gate: UpstreamGate): Promise<number>;
}
