import type { ServiceContext } from "../context";
import { randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import type { UserRow } from "../users/directory";
import { github } from "./github";
import { linuxdo } from "./linuxdo";
import { oidc } from "./oidc";
import type { ExternalAccount } from "./providers";
import { completeSignIn, requireEnabled, type SignInOutcome } from "./sign-in";
import { INVALID_STATE, issueState, takeState } from "./state";

interface AuthorizeParams {
  state: string;
  /** `<ServerAddress>/oauth/<provider>`, "" when no ServerAddress is set. */
  redirectUri: string;
  challenge: string;
  nonce: string;
}

interface CallbackParams {
  code: string;
  redirectUri: string;
  verifier: string;
  nonce: string;
}

/** An OAuth authorization-code provider: where to send the browser, and the account a returned code names. */
export interface CodeFlow {
  /** Needs the PKCE verifier and nonce kept with the state, so a bare GET /api/oauth/state cannot start it. */
  usesPkce?: boolean;
  authorizeUrl(ctx: ServiceContext, params: AuthorizeParams): string | Promise<string>;
  account(ctx: ServiceContext, params: CallbackParams): Promise<ExternalAccount>;
}

export const CODE_FLOWS = { github, linuxdo, oidc } satisfies Record<string, CodeFlow>;
export type CodeFlowProvider = keyof typeof CODE_FLOWS;

const redirectUri = (ctx: ServiceContext, provider: CodeFlowProvider) => {
  const server = ctx.options.raw("ServerAddress");
  return server ? `${server}/oauth/${provider}` : "";
};

const s256 = (verifier: string) =>
  new Bun.CryptoHasher("sha256")
    .update(verifier)
    .digest("base64")
    .replace(/=+$/, "")
    .replace(/\+/g, "-")
    .replace(/\//g, "_");

/** Who starts a sign-in: the browser's own key, the invite code, and the signed-in user when binding. */
export interface Starter {
  browser: string;
  aff: string;
  user?: UserRow;
}

/** The provider's authorize address for this browser, with a fresh single-use state (and PKCE, nonce). */
export async function startSignIn(ctx: ServiceContext, provider: CodeFlowProvider, starter: Starter): Promise<string> {
  requireEnabled(ctx, provider);
  const verifier = randomAlphanumeric(64);
  const nonce = randomAlphanumeric(32);
  const state = await issueState(ctx, {
    provider,
    browser: starter.browser,
    aff: starter.aff,
    userId: starter.user?.id ?? 0,
    verifier,
    nonce,
  });
  return CODE_FLOWS[provider].authorizeUrl(ctx, {
    state,
    redirectUri: redirectUri(ctx, provider),
    challenge: s256(verifier),
    nonce,
  });
}

/**
 * The provider's callback: the state is taken (single use, this browser, this provider), the code traded, and
 * the account signs in or, when the state was issued to a signed-in user who is still the caller, is bound.
 */
export async function finishSignIn(
  ctx: ServiceContext,
  provider: CodeFlowProvider,
  { code, state, browser, caller }: { code: string; state: string; browser: string; caller?: UserRow },
): Promise<SignInOutcome> {
  requireEnabled(ctx, provider);
  const intent = await takeState(ctx, state, browser, provider);
  const flow: CodeFlow = CODE_FLOWS[provider];
  if (flow.usesPkce && !intent.verifier) refuse(INVALID_STATE, 403);
  if (intent.userId && caller?.id !== intent.userId) refuse(INVALID_STATE, 403);
  if (!code || code.length > 512) refuse("the sign-in code is missing");
  const account = await flow.account(ctx, {
    code,
    redirectUri: redirectUri(ctx, provider),
    verifier: intent.verifier,
    nonce: intent.nonce,
  });
  return completeSignIn(ctx, account, { aff: intent.aff, bindTo: intent.userId ? caller : undefined });
}
