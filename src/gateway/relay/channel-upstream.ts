import type { ChannelUpstream, UpstreamChannel } from "../../service/channels/upstream-port";
import type { UpstreamGate } from "../../service/egress/gate";
import { refuse } from "../../service/errors";
import { channelTypeName } from "../../shared/channel-types";
import { nowSeconds } from "../../shared/time";
import { getUpstreamJson } from "../upstream/get-json";
import { ChannelConfigError } from "../../shared/channel-config-error";
import { channelBaseUrl } from "./providers/channel";
import { providerFor } from "./providers/registry";
import type { ModelListing, TokenGrant } from "./providers/types";
import { tokenFor } from "./minted-token";

const LISTING = "fetching the model list";
const BALANCE = "querying the balance";
/** Pages followed at the most: far more models than any upstream lists, and an end to an upstream that never stops. */
const MAX_PAGES = 20;

const baseOf = (channel: UpstreamChannel, what: string): string =>
  channelBaseUrl(channel) || refuse(`${what} failed: the channel has no base URL`);
const unsupported = (what: string, type: number): never =>
  refuse(`${what} is not supported for channel type ${channelTypeName(type)}`);

/** A page's address; a family may address its list by other settings (a region) than the base URL. */
function pageUrl(listing: ModelListing, base: string, channel: UpstreamChannel, cursor: string | undefined): string {
  let url: string;
  try {
    url = listing.url(base, channel, cursor);
  } catch (error) {
    if (error instanceof ChannelConfigError) refuse(`${LISTING} failed: ${error.message}`);
    throw error;
  }
  return url.startsWith("http") ? url : refuse(`${LISTING} failed: the channel has no base URL`);
}

/** The bearer token of a family that mints one (Vertex's service accounts); its failure, told without secrets. */
async function grantedToken(grant: TokenGrant, channel: UpstreamChannel, gate: UpstreamGate): Promise<string> {
  const minted = await tokenFor(grant, channel, gate);
  return minted.ok ? minted.token : refuse(`${LISTING} failed: ${minted.failure.message}`);
}

/** Follows the pages from the first until one names no next cursor (or repeats its own), MAX_PAGES at the most; the ids in order, without repeats. */
async function listModels(channel: UpstreamChannel, gate: UpstreamGate): Promise<string[]> {
  const provider = providerFor(channel.type);
  const listing = provider.models ?? unsupported(LISTING, channel.type);
  const base = channelBaseUrl(channel);
  const token = provider.grant ? await grantedToken(provider.grant, channel, gate) : undefined;
  const ids: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const url = pageUrl(listing, base, channel, cursor);
    const reply = await getUpstreamJson(url, listing.headers(channel, url, token), LISTING, gate);
    const { ids: more, next } =
      listing.page(reply) ?? refuse(`${LISTING} failed: the upstream reply is not a model list`);
    ids.push(...more);
    if (typeof next !== "string" || next === "" || next === cursor) break;
    cursor = next;
  }
  return [...new Set(ids.filter((id): id is string => typeof id === "string" && id !== ""))];
}

/** Reads the family's balance calls in order, then the balance they tell. */
async function queryBalance(channel: UpstreamChannel, gate: UpstreamGate): Promise<number> {
  const query = providerFor(channel.type).balance ?? unsupported("balance query", channel.type);
  const base = baseOf(channel, BALANCE);
  const headers = query.headers(channel);
  const replies: unknown[] = [];
  for (const url of query.urls(base, nowSeconds())) replies.push(await getUpstreamJson(url, headers, BALANCE, gate));
  return query.balanceOf(replies) ?? refuse(`${BALANCE} failed: the upstream reply is not a balance`);
}

/** The service's ChannelUpstream port, spoken through each channel type's provider. */
export const providerUpstream: ChannelUpstream = { listModels, queryBalance };
