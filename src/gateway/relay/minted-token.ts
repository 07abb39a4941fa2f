import type { AttemptFailure } from "../../service/relay/retry-policy";
import { maskUpstreamText } from "../../service/relay/mask";
import { RefusedAddressError, type UpstreamGate } from "../../service/egress/gate";
import { gatedFetch } from "../../service/egress/gated-fetch";
import { ChannelConfigError } from "../../shared/channel-config-error";
import type { ProviderChannel, TokenGrant } from "./providers/types";
import { TokenCache, type Minted } from "./token-cache";

/** How long a token endpoint may take to answer. */
const TOKEN_TIMEOUT_MS = 30_000;
const ERROR_TEXT_LIMIT = 500;

/** Every channel's upstream tokens, by account. */
const tokens = new TokenCache();

/** The token endpoint answered with an error status. */
class TokenRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What an OAuth error reply says: `error: error_description` (Google's shape), else its text. */
function refusalText(text: string): string {
  try {
    const reply = JSON.parse(text);
    const said = [reply?.error, reply?.error_description].filter((s) => typeof s === "string" && s);
    if (said.length) return said.join(": ");
  } catch {}
  return text.slice(0, ERROR_TEXT_LIMIT);
}

async function mint(grant: TokenGrant, channel: ProviderChannel, gate: UpstreamGate): Promise<Minted> {
  const { url, body, contentType } = await grant.request(channel);
  const response = await gatedFetch(
    url,
    {
      method: "POST",
      headers: { "content-type": contentType },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    },
    gate,
  );
  const text = await response.text();
  if (!response.ok) throw new TokenRefusal(response.status, refusalText(text));
  let minted: Minted | undefined;
  try {
    minted = grant.tokenOf(JSON.parse(text));
  } catch {}
  if (!minted) throw new TokenRefusal(502, "the reply holds no access token");
  return minted;
}

/** A channel whose own settings cannot address its upstream: its fault (another channel is tried), named. */
export const misconfigured = (error: ChannelConfigError) => ({
  ok: false as const,
  failure: { status: 0, message: error.message },
  upstreamCode: "channel_misconfigured",
});

/**
 * The failure of a mint: a refusal (4xx) is about the channel's credentials and fails as a 401 (the relay's rule
 * makes that a 502 upstream_auth_error and auto-disables the channel); a failing endpoint (5xx) keeps its status.
 */
function failureOf(error: unknown, channel: ProviderChannel): { failure: AttemptFailure; upstreamCode?: string } {
  const masked = (message: string) => maskUpstreamText(message, [channel.key, channel.base_url]);
  if (error instanceof ChannelConfigError) return misconfigured(error);
  if (error instanceof TokenRefusal) {
    const status = error.status < 500 ? 401 : error.status;
    const message = masked(
      `the token endpoint refused the channel's service account (HTTP ${error.status}): ${error.message}`,
    );
    return { failure: { status, message } };
  }
  if (error instanceof RefusedAddressError)
    return { failure: { status: 0, message: error.message }, upstreamCode: "upstream_address_not_allowed" };
  const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
  const message = timedOut ? "the token endpoint did not answer in time" : "could not connect to the token endpoint";
  return { failure: { status: 0, message } };
}

export type TokenResult = { ok: true; token: string } | { ok: false; failure: AttemptFailure; upstreamCode?: string };

/** The channel's upstream token: kept for its account, or minted through `grant` at the token endpoint `gate` allows. */
export async function tokenFor(grant: TokenGrant, channel: ProviderChannel, gate: UpstreamGate): Promise<TokenResult> {
  try {
    return { ok: true, token: await tokens.get(grant.account(channel), () => mint(grant, channel, gate)) };
  } catch (error) {
    return { ok: false, ...failureOf(error, channel) };
  }
}
