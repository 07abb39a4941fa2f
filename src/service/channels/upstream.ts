import type { ChannelRow } from "../../db/schema";
import { CHANNEL_TYPES } from "../../shared/channel-types";
import { RefusedAddressError, type UpstreamGate } from "../egress/gate";
import { gatedFetch } from "../egress/gated-fetch";
import { refuse } from "../errors";
import { firstKeyOf } from "./dialects";

const TIMEOUT_MS = 15_000;

/** Where a channel's requests go: its base URL, else its type's default. */
export const upstreamBaseOf = (channel: Pick<ChannelRow, "type" | "base_url">): string =>
  (channel.base_url || CHANNEL_TYPES.get(channel.type)?.baseUrl || "").replace(/\/+$/, "");

/** OpenAI's authentication: the channel's first key as a Bearer token. */
export const bearerHeaders = (key: string): Record<string, string> => ({ authorization: `Bearer ${firstKeyOf(key)}` });

/**
 * GET of an upstream's JSON, the key in `headers`, at an address `gate` allows. Failures are told by kind and
 * status only (and the policy's refusal): upstream error text can echo the key and the URL is the operator's,
 * so neither reaches the message.
 */
export async function getUpstreamJson(url: string, headers: Record<string, string>, what: string, gate: UpstreamGate): Promise<unknown> {
  let response: Response;
  try {
    const init = { headers: { ...headers, accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) } as const;
    response = await gatedFetch(url, init, gate);
  } catch (error) {
    return refuse(`${what} failed: ${error instanceof RefusedAddressError ? error.message : "the upstream could not be reached"}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    refuse(`${what} failed: the upstream answered HTTP ${response.status}`);
  }
  try {
    return await response.json();
  } catch {
    return refuse(`${what} failed: the upstream reply is not JSON`);
  }
}
