import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import type { CodeFlow } from "./code-flow";
import { FORM, fetchProviderJson, formBody, NO_SERVER_ADDRESS } from "./remote";

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

const NOT_CONFIGURED =
  "OpenID Connect sign-in is not configured: a discovery address, client id and secret are required";

/** The provider's discovery document (OIDCWellKnown), read on each sign-in so a changed provider is seen at once. */
export async function discover(ctx: ServiceContext): Promise<Discovery> {
  const address = ctx.options.raw("OIDCWellKnown");
  if (!address || !ctx.options.raw("OIDCClientId")) refuse(NOT_CONFIGURED);
  const doc = await fetchProviderJson(ctx, "the OpenID provider", address);
  for (const field of ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const) {
    if (typeof doc[field] !== "string" || !doc[field])
      refuse(`the OpenID provider's discovery document has no ${field}`);
  }
  return doc as Discovery;
}

/**
 * OpenID Connect authorization code flow with PKCE (S256) and a nonce: the id_token's signature (the provider's
 * published keys), issuer, audience, expiry and nonce are checked by jose; its `sub` is the account.
 */
export const oidc: CodeFlow = {
  usesPkce: true,
  async authorizeUrl(ctx, { state, redirectUri, challenge, nonce }) {
    if (!redirectUri) refuse(NO_SERVER_ADDRESS);
    const { authorization_endpoint } = await discover(ctx);
    const params = new URLSearchParams({
      response_type: "code",
      client_id: ctx.options.raw("OIDCClientId"),
      redirect_uri: redirectUri,
      scope: "openid profile email",
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    return `${authorization_endpoint}${authorization_endpoint.includes("?") ? "&" : "?"}${params}`;
  },
  async account(ctx, { code, redirectUri, verifier, nonce }) {
    const clientId = ctx.options.raw("OIDCClientId");
    const clientSecret = ctx.options.raw("OIDCClientSecret");
    if (!clientSecret) refuse(NOT_CONFIGURED);
    if (!redirectUri) refuse(NO_SERVER_ADDRESS);
    const discovery = await discover(ctx);
    const token = await fetchProviderJson(ctx, "the OpenID provider", discovery.token_endpoint, {
      method: "POST",
      headers: FORM,
      body: formBody({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        client_secret: clientSecret,
        code_verifier: verifier,
      }),
    });
    if (typeof token.id_token !== "string") {
      refuse("the OpenID provider did not accept the sign-in: the code is wrong, used or expired");
    }
    const keys = await fetchProviderJson(ctx, "the OpenID provider", discovery.jwks_uri);
    let claims: Record<string, unknown>;
    const { createLocalJWKSet, jwtVerify } = await import("jose");
    try {
      const jwks = createLocalJWKSet(keys);
      ({ payload: claims } = await jwtVerify(token.id_token, jwks, { issuer: discovery.issuer, audience: clientId }));
    } catch {
      return refuse("the OpenID provider's id_token is not valid");
    }
    if (claims.nonce !== nonce) refuse("the OpenID provider's id_token is not valid");
    const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);
    return {
      provider: "oidc",
      id: str(claims.sub) ?? "",
      username: str(claims.preferred_username),
      displayName: str(claims.name) ?? str(claims.preferred_username),
    };
  },
};
