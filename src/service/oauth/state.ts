import { putOneTimeKey, takeOneTimeKey } from "../../db/queries/one-time-keys";
import type { ServiceContext } from "../context";
import { keyedHash, randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { nowSeconds } from "../time";

/** How long a sign-in may take at the provider. */
export const STATE_TTL_SECONDS = 600;

export const INVALID_STATE = "the sign-in state is invalid or has expired, please try again";

/** What a state stands for: the browser that asked, its invite code, and whom to bind to (0: sign in). */
export interface OAuthIntent {
  /** The provider it was issued for; "" for the dialect's GET /api/oauth/state, which does not say. */
  provider: string;
  browser: string;
  aff: string;
  userId: number;
  /** PKCE code verifier and OpenID nonce, when the flow uses them. */
  verifier: string;
  nonce: string;
}

const stateKey = (ctx: ServiceContext, state: string) => `oauth-state:${keyedHash(ctx.secret, state)}`;

/** A new state, kept server-side (hashed) for STATE_TTL_SECONDS on every instance. */
export async function issueState(ctx: ServiceContext, intent: OAuthIntent): Promise<string> {
  const state = randomAlphanumeric(32);
  const now = nowSeconds();
  await putOneTimeKey(ctx.db, stateKey(ctx, state), JSON.stringify(intent), now + STATE_TTL_SECONDS, now);
  return state;
}

/**
 * Takes a state once: unknown, expired, used, issued to another browser or for another provider all refuse
 * (403, as the dialect does) and change nothing.
 */
export async function takeState(
  ctx: ServiceContext,
  state: string,
  browser: string,
  provider: string,
): Promise<OAuthIntent> {
  if (!state || state.length > 64) return refuse(INVALID_STATE, 403);
  const stored = await takeOneTimeKey(ctx.db, stateKey(ctx, state), nowSeconds());
  if (!stored) return refuse(INVALID_STATE, 403);
  const intent = JSON.parse(stored) as OAuthIntent;
  if (!browser || intent.browser !== browser) return refuse(INVALID_STATE, 403);
  if (intent.provider !== "" && intent.provider !== provider) return refuse(INVALID_STATE, 403);
  return intent;
}
