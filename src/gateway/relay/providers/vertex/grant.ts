import { createPrivateKey, type KeyObject } from "node:crypto";
import { ServiceAccountKeyError, serviceAccountOf } from "../../../../shared/service-account";
import type { TokenGrant } from "../types";

/** Google's OAuth scope covering Vertex AI. */
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
/** The longest lifetime Google grants a service account's assertion. */
const ASSERTION_LIFETIME = "1h";

/**
 * Read with node:crypto rather than WebCrypto's importKey: Bun's importKey leaves a failed parse on OpenSSL's error
 * queue, and the next HMAC (how access tokens are looked up) then throws it.
 */
export function signingKey(pem: string): KeyObject {
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey(pem);
  } catch {}
  if (key?.asymmetricKeyType !== "rsa")
    throw new ServiceAccountKeyError("private_key could not be read as an RSA private key");
  return key;
}

/**
 * OAuth 2.0's JWT bearer grant (RFC 7523) as Google takes it: an RS256 assertion signed with the service
 * account's private key (iss = client_email, aud = token_uri, scope cloud-platform) posted to token_uri.
 */
export const serviceAccountGrant: TokenGrant = {
  account(channel) {
    const { client_email, token_uri, private_key } = serviceAccountOf(channel.key);
    return `${client_email}\u0000${token_uri}\u0000${private_key}`;
  },
  async request(channel) {
    const account = serviceAccountOf(channel.key);
    // Loaded when first used: most gateways never sign for Vertex, and each full collection marks every loaded module.
    const { SignJWT } = await import("jose");
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setIssuer(account.client_email)
      .setAudience(account.token_uri)
      .setIssuedAt()
      .setExpirationTime(ASSERTION_LIFETIME)
      .sign(signingKey(account.private_key));
    return {
      url: account.token_uri,
      contentType: "application/x-www-form-urlencoded",
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    };
  },
  tokenOf(reply) {
    const token = reply?.access_token;
    const expiresIn = Number(reply?.expires_in);
    if (typeof token !== "string" || !token) return undefined;
    return { token, expiresIn: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600 };
  },
};
