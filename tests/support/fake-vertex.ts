import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from "jose";
import { anthropicDialect, anthropicError } from "./fake-anthropic";
import { geminiDialect, geminiError } from "./fake-gemini";
import {
  startFakeServer,
  type FakeCall,
  type FakeDialect,
  type FakeUpstream,
  type FakeUpstreamOptions,
} from "./fake-upstream";

const SCOPE = "https://www.googleapis.com/auth/cloud-platform";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const FAKE_PROJECT = "tollgate-test-project";

/** A service account with a fresh RSA key pair: its JSON key (for the channel) and its public key (for the fake). */
export async function testServiceAccount(
  tokenUri: string,
  email = "relay@tollgate-test-project.iam.gserviceaccount.com",
) {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const json = {
    type: "service_account",
    project_id: FAKE_PROJECT,
    private_key_id: crypto.randomUUID().replaceAll("-", ""),
    private_key: await exportPKCS8(privateKey),
    client_email: email,
    client_id: "1234567890",
    token_uri: tokenUri,
  };
  return { key: JSON.stringify(json, null, 2), json, publicKeyPem: await exportSPKI(publicKey) };
}

export interface FakeTokenEndpoint {
  url: string;
  /** The token_uri a service account names. */
  tokenUri: string;
  /** Tokens minted so far (one per accepted assertion). */
  mints: number;
  /** The service accounts it knows: client_email → public key PEM. */
  trust(email: string, publicKeyPem: string): void;
  /** Lifetime of the next tokens, in seconds. */
  lifetime: number;
  /** Whether a bearer token is one it issued, unexpired. */
  issued(token: string): boolean;
  stop(): Promise<void>;
}

const oauthError = (status: number, error: string, description: string) =>
  Response.json({ error, error_description: description }, { status });

/**
 * Google's token endpoint as a service account meets it: POST form {grant_type: jwt-bearer, assertion}, the
 * assertion an RS256 JWT whose signature verifies with the account's PUBLIC key, iss its client_email, aud this
 * endpoint, scope cloud-platform; answers {access_token, expires_in, token_type}.
 */
export function startFakeTokenEndpoint(): FakeTokenEndpoint {
  const keys = new Map<string, string>();
  const tokens = new Map<string, number>();
  let tokenUri = "";
  const endpoint: FakeTokenEndpoint = {
    url: "",
    tokenUri: "",
    mints: 0,
    lifetime: 3600,
    trust: (email, pem) => void keys.set(email, pem),
    issued: (token) => (tokens.get(token) ?? 0) > Date.now(),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (request.method !== "POST" || new URL(request.url).pathname !== "/token")
        return oauthError(404, "not_found", "Not found.");
      const form = new URLSearchParams(await request.text());
      if (form.get("grant_type") !== JWT_BEARER)
        return oauthError(400, "unsupported_grant_type", "Invalid grant_type.");
      const assertion = form.get("assertion") ?? "";
      const claims = JSON.parse(Buffer.from(assertion.split(".")[1] ?? "", "base64url").toString() || "{}");
      const pem = keys.get(claims.iss);
      if (!pem) return oauthError(400, "invalid_grant", "Invalid grant: account not found");
      try {
        const { payload } = await jwtVerify(assertion, await importSPKI(pem, "RS256"), {
          issuer: claims.iss,
          audience: tokenUri,
          algorithms: ["RS256"],
        });
        if (payload.scope !== SCOPE) return oauthError(400, "invalid_scope", "Invalid OAuth scope.");
      } catch {
        return oauthError(400, "invalid_grant", "Invalid JWT Signature.");
      }
      const token = `ya29.fake-${++endpoint.mints}-${crypto.randomUUID()}`;
      tokens.set(token, Date.now() + endpoint.lifetime * 1000);
      return Response.json({ access_token: token, expires_in: endpoint.lifetime, token_type: "Bearer" });
    },
  });
  endpoint.url = `http://127.0.0.1:${server.port}`;
  endpoint.tokenUri = tokenUri = `${endpoint.url}/token`;
  return endpoint;
}

/** `/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}` */
const VERTEX_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):(\w+)$/;

/** The call as the Gemini or Anthropic fake reads it (their own paths), so their replies serve Vertex's. */
function asPublisherCall(call: FakeCall, publisher: string, model: string, method: string): FakeCall {
  const url = new URL(call.url);
  if (publisher === "google") {
    url.pathname = `/v1beta/models/${model}:${method}`;
    return { ...call, url };
  }
  url.pathname = "/v1/messages";
  return { ...call, url, body: { ...call.body, model } };
}

function anthropicRefusal(call: FakeCall, method: string) {
  const body = call.body;
  if (body?.anthropic_version !== "vertex-2023-10-16")
    return { json: anthropicError(400, "anthropic_version: must be vertex-2023-10-16"), status: 400 };
  if (body.model !== undefined)
    return { json: anthropicError(400, "model: Extra inputs are not permitted"), status: 400 };
  if ((method === "streamRawPredict") !== (body.stream === true))
    return { json: anthropicError(400, "stream: must be true on streamRawPredict only"), status: 400 };
  return undefined;
}

const METHODS: Record<string, string[]> = {
  google: ["generateContent", "streamGenerateContent"],
  anthropic: ["rawPredict", "streamRawPredict"],
};

/** `/v1beta1/publishers/{publisher}/models`: Model Garden's list of a publisher's models. */
const PUBLISHER_MODELS = /^\/v1beta1\/publishers\/([^/]+)\/models$/;

/**
 * The models the fake's options name, each under the publisher its name tells (claude-… is Anthropic's), one a
 * page (pageToken is the next index), as {publisherModels: [{name: "publishers/{p}/models/{id}"}], nextPageToken}.
 */
function publisherModels(call: FakeCall, publisher: string) {
  const own = (call.options.models ?? []).filter(
    (m) => (m.startsWith("claude") ? "anthropic" : "google") === publisher,
  );
  const at = Number(call.url.searchParams.get("pageToken") || 0);
  const page = own.slice(at, at + 1).map((id) => ({ name: `publishers/${publisher}/models/${id}` }));
  return { json: { publisherModels: page, ...(at + 1 < own.length && { nextPageToken: String(at + 1) }) } };
}

function vertexDialect(tokens: FakeTokenEndpoint, region: string): FakeDialect {
  return {
    model: (url) => VERTEX_PATH.exec(url.pathname)?.[4],
    authorized: (request) => tokens.issued(request.headers.get("authorization")?.replace(/^Bearer /, "") ?? ""),
    errorBody: geminiError,
    handle(call) {
      const listed = PUBLISHER_MODELS.exec(call.url.pathname)?.[1];
      if (listed && call.request.method === "GET") return publisherModels(call, listed);
      const [, project, location, publisher, model, method] = VERTEX_PATH.exec(call.url.pathname) ?? [];
      if (call.request.method !== "POST" || !publisher || !METHODS[publisher]!.includes(method!)) return undefined;
      if (project !== FAKE_PROJECT || location !== region)
        return { json: geminiError(404, `Project ${project} or location ${location} not found.`), status: 404 };
      if (typeof call.body !== "object")
        return { json: geminiError(400, "Invalid JSON payload received."), status: 400 };
      const translated = asPublisherCall(call, publisher, model!, method === "rawPredict" ? "" : method!);
      if (publisher === "google") return geminiDialect.handle(translated);
      return anthropicRefusal(call, method!) ?? anthropicDialect.handle(translated);
    },
  };
}

/** Vertex AI's generateContent and rawPredict on a loopback port, taking only bearer tokens `tokens` issued. */
export function startFakeVertex(
  tokens: FakeTokenEndpoint,
  options: FakeUpstreamOptions & { region?: string } = {},
): FakeUpstream {
  // startFakeServer checks `authorized` only when it is given a key; the dialect ignores its value.
  return startFakeServer(vertexDialect(tokens, options.region ?? "us-central1"), { apiKey: "issued", ...options });
}
