import { gatedFetch } from "../egress/gated-fetch";
import { upstreamGate } from "../egress/site-gate";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";

const TIMEOUT_MS = 10_000;

export const NO_SERVER_ADDRESS =
  "the server address is not set, so a sign-in elsewhere cannot come back here; ask the administrator";

/**
 * A provider's JSON answer, fetched under the upstream address policy. Unreachable, refused or not JSON reads
 * as one clear refusal naming the provider (its reply is not passed on: it may echo secrets).
 */
export async function fetchProviderJson(ctx: ServiceContext, who: string, url: string, init: RequestInit = {}) {
  let response: Response;
  try {
    response = await gatedFetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }, upstreamGate(ctx.options));
  } catch {
    return refuse(`could not reach ${who}, please try again later`);
  }
  const body: any = await response.json().catch(() => undefined);
  if (!response.ok || body === undefined || body === null || typeof body !== "object") {
    return refuse(`${who} refused the sign-in (HTTP ${response.status})`);
  }
  return body;
}

export const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

export const FORM = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
