import { createHash } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

/** Who is signed in at the fake provider: the account it vouches for when the browser comes to authorize. */
export interface FakeAccount {
  id: number | string;
  login: string;
  name?: string;
  /** LinuxDO only. */
  trust_level?: number;
}

export type FakeOAuthKind = "github" | "linuxdo" | "oidc";

export const FAKE_CLIENT_ID = "fake-client-id";
export const FAKE_CLIENT_SECRET = "fake-client-secret-0123456789";

/** Where each kind's endpoints live on the fake (GitHub's API under /api/v3, as on GitHub Enterprise Server). */
export const FAKE_PATHS = {
  github: { authorize: "/login/oauth/authorize", token: "/login/oauth/access_token", user: "/api/v3/user" },
  linuxdo: { authorize: "/oauth2/authorize", token: "/oauth2/token", user: "/api/user" },
  oidc: { authorize: "/authorize", token: "/token", user: "" },
} as const;

interface IssuedCode {
  account: FakeAccount;
  redirectUri: string;
  challenge: string;
  nonce: string;
  expiresAt: number;
}

export interface FakeOAuth {
  url: string;
  /** The account signed in at the provider. */
  account: FakeAccount;
  /** Signs id_tokens with a key the provider does not publish (an impostor's token). */
  signWithForeignKey: boolean;
  /** Refusals the provider gave, with their reason. */
  refusals: string[];
  /** Every code issued so far expires now. */
  expireCodes(): void;
  stop(): Promise<void>;
}

const CODE_TTL_MS = 60_000;

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

/**
 * A loopback OAuth provider of one kind that checks what the real one checks: the client id at authorize, the
 * client secret (form fields for GitHub and OIDC, HTTP Basic for LinuxDO), a code issued by it, unused and
 * unexpired, the redirect_uri it was issued for, and for OIDC the PKCE verifier against the S256 challenge;
 * then the user endpoint needs the access token it issued. OIDC serves discovery and JWKS and signs RS256
 * id_tokens with iss, aud, nonce and sub.
 */
export async function startFakeOAuth(kind: FakeOAuthKind, account: FakeAccount): Promise<FakeOAuth> {
  const paths = FAKE_PATHS[kind];
  const codes = new Map<string, IssuedCode>();
  const tokens = new Map<string, FakeAccount>();
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const foreign = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const refusals: string[] = [];
  const refuse = (status: number, error: string, why: string) => {
    refusals.push(why);
    // GitHub answers a bad code or client with 200 and an error field; the others with an HTTP error.
    return Response.json({ error, error_description: why }, { status: kind === "github" ? 200 : status });
  };
  let url = "";

  const authorize = (params: URLSearchParams) => {
    if (params.get("client_id") !== FAKE_CLIENT_ID) return new Response("unknown client_id", { status: 400 });
    const redirectUri = params.get("redirect_uri") ?? "";
    if (!redirectUri) return new Response("redirect_uri is required", { status: 400 });
    const challenge = params.get("code_challenge") ?? "";
    if (kind === "oidc" && (params.get("code_challenge_method") !== "S256" || !challenge))
      return new Response("PKCE S256 is required", { status: 400 });
    const code = crypto.randomUUID().replaceAll("-", "");
    codes.set(code, {
      account: fake.account,
      redirectUri,
      challenge,
      nonce: params.get("nonce") ?? "",
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", params.get("state") ?? "");
    return Response.redirect(back.toString(), 302);
  };

  const token = async (request: Request) => {
    const form = new URLSearchParams(await request.text());
    let clientId = form.get("client_id");
    let clientSecret = form.get("client_secret");
    if (kind === "linuxdo") {
      const basic = request.headers.get("authorization")?.replace(/^Basic /, "") ?? "";
      const [id = "", secret = ""] = atob(basic).split(":");
      [clientId, clientSecret] = [id, secret];
      if (form.get("grant_type") !== "authorization_code") return refuse(400, "unsupported_grant_type", "grant_type");
    }
    if (clientId !== FAKE_CLIENT_ID || clientSecret !== FAKE_CLIENT_SECRET)
      return refuse(401, "invalid_client", "wrong client id or secret");
    const code = form.get("code") ?? "";
    const issued = codes.get(code);
    codes.delete(code);
    if (!issued) return refuse(400, "bad_verification_code", "unknown or used code");
    if (issued.expiresAt <= Date.now()) return refuse(400, "bad_verification_code", "expired code");
    if (kind !== "github" && form.get("redirect_uri") !== issued.redirectUri)
      return refuse(400, "invalid_grant", "redirect_uri differs from the authorize request's");
    if (kind === "oidc" && s256(form.get("code_verifier") ?? "") !== issued.challenge)
      return refuse(400, "invalid_grant", "PKCE verifier does not match the challenge");
    const accessToken = crypto.randomUUID();
    tokens.set(accessToken, issued.account);
    if (kind !== "oidc") return Response.json({ access_token: accessToken, token_type: "bearer" });
    const idToken = await new SignJWT({
      nonce: issued.nonce,
      preferred_username: issued.account.login,
      name: issued.account.name,
    })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(url)
      .setAudience(FAKE_CLIENT_ID)
      .setSubject(String(issued.account.id))
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(fake.signWithForeignKey ? foreign.privateKey : privateKey);
    return Response.json({ access_token: accessToken, token_type: "Bearer", id_token: idToken });
  };

  const user = (request: Request) => {
    const who = tokens.get(request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
    if (!who) return refuse(401, "unauthorized", "unknown access token");
    if (kind === "github") return Response.json({ id: who.id, login: who.login, name: who.name ?? null });
    return Response.json({
      id: who.id,
      username: who.login,
      name: who.name ?? "",
      active: true,
      silenced: false,
      trust_level: who.trust_level ?? 0,
    });
  };

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const { pathname, searchParams } = new URL(request.url);
      if (pathname === paths.authorize) return authorize(searchParams);
      if (pathname === paths.token && request.method === "POST") return token(request);
      if (pathname === paths.user && paths.user) return user(request);
      if (kind === "oidc" && pathname === "/.well-known/openid-configuration")
        return Response.json({
          issuer: url,
          authorization_endpoint: `${url}/authorize`,
          token_endpoint: `${url}/token`,
          jwks_uri: `${url}/jwks`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        });
      if (kind === "oidc" && pathname === "/jwks") return Response.json({ keys: [jwk] });
      return new Response("not found", { status: 404 });
    },
  });
  url = `http://127.0.0.1:${server.port}`;
  const fake: FakeOAuth = {
    url,
    account,
    signWithForeignKey: false,
    refusals,
    expireCodes() {
      for (const issued of codes.values()) issued.expiresAt = 0;
    },
    stop: () => server.stop(true),
  };
  return fake;
}
