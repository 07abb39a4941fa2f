import { describe, expect, test } from "bun:test";
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { ChannelConfigError } from "../../../src/shared/channel-config-error";
import { vertexProvider } from "../../../src/gateway/relay/providers/vertex/provider";
import { FAKE_PROJECT, testServiceAccount } from "../../support/fake-vertex";

const TOKEN_URI = "https://oauth2.example.test/token";
const account = await testServiceAccount(TOKEN_URI);
const channel = (fields: { other?: string; base_url?: string; key?: string } = {}) => ({
  type: 41,
  key: account.key,
  base_url: "",
  other: "",
  ...fields,
});
const chat = { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 50 };
const build = (model: string, stream: boolean, fields?: Parameters<typeof channel>[0]) =>
  vertexProvider.request(
    channel(fields),
    { path: "/v1/chat/completions", model, body: "", contentType: "application/json", stream, json: chat },
    "ya29.minted",
  );
const models = `/v1/projects/${FAKE_PROJECT}/locations`;

describe("Vertex AI requests (channel type 41)", () => {
  test("Gemini models go to Google's generateContent / streamGenerateContent?alt=sse with the minted bearer token", () => {
    const plain = build("gemini-2.5-flash", false);
    expect(plain.url).toBe(
      `https://us-central1-aiplatform.googleapis.com${models}/us-central1/publishers/google/models/gemini-2.5-flash:generateContent`,
    );
    expect(plain.headers.authorization).toBe("Bearer ya29.minted");
    expect(JSON.parse(plain.body!)).toEqual({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      generationConfig: { maxOutputTokens: 50 },
    });
    expect(build("gemini-2.5-flash", true).url).toEndWith("/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
  });

  test("Claude models go to Anthropic's rawPredict / streamRawPredict with the Messages body, vertex-2023-10-16 and no model", () => {
    const plain = build("claude-sonnet-4@20250514", false);
    expect(plain.url).toEndWith(
      `${models}/us-central1/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
    );
    expect(JSON.parse(plain.body!)).toEqual({
      anthropic_version: "vertex-2023-10-16",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
    });
    const streamed = build("claude-sonnet-4@20250514", true);
    expect(streamed.url).toEndWith(":streamRawPredict");
    expect(JSON.parse(streamed.body!)).toMatchObject({ anthropic_version: "vertex-2023-10-16", stream: true });
    expect(JSON.parse(streamed.body!).model).toBeUndefined();
  });

  test("the region comes from other (us-central1 when blank); global uses aiplatform.googleapis.com; base_url overrides the host", () => {
    expect(build("gemini-2.5-pro", false, { other: "europe-west4" }).url).toStartWith(
      `https://europe-west4-aiplatform.googleapis.com${models}/europe-west4/`,
    );
    expect(build("gemini-2.5-pro", false, { other: "global" }).url).toStartWith(
      `https://aiplatform.googleapis.com${models}/global/`,
    );
    expect(build("gemini-2.5-pro", false, { base_url: "http://127.0.0.1:9/" }).url).toStartWith(
      `http://127.0.0.1:9${models}/us-central1/`,
    );
  });

  test("an unknown region is a clear channel error, not a request", () => {
    expect(() => build("gemini-2.5-pro", false, { other: "moon base" })).toThrow(ChannelConfigError);
    expect(() => build("gemini-2.5-pro", false, { other: "moon base" })).toThrow(
      /"moon base" is not a Vertex AI region/,
    );
  });

  test("a malformed service-account key is a clear channel error that never quotes the key", () => {
    const key = JSON.stringify({ ...account.json, client_email: undefined });
    expect(() => build("gemini-2.5-pro", false, { key })).toThrow(
      "the key is not a service account's JSON key: client_email missing",
    );
    try {
      build("gemini-2.5-pro", false, { key: "sk-not-json-SECRET" });
    } catch (error) {
      expect(error).toBeInstanceOf(ChannelConfigError);
      expect(String(error)).not.toContain("SECRET");
    }
    expect(() => vertexProvider.grant!.account(channel({ key: "{}" }))).toThrow(ChannelConfigError);
  });

  test("the token grant is an RS256 JWT signed with the account's key: iss client_email, aud token_uri, scope cloud-platform", async () => {
    const grant = await vertexProvider.grant!.request(channel());
    expect(grant.url).toBe(TOKEN_URI);
    expect(grant.contentType).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(grant.body);
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const assertion = form.get("assertion")!;
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: "RS256", typ: "JWT" });
    const { payload } = await jwtVerify(assertion, await importSPKI(account.publicKeyPem, "RS256"), {
      issuer: account.json.client_email,
      audience: TOKEN_URI,
    });
    expect(payload.scope).toBe("https://www.googleapis.com/auth/cloud-platform");
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(decodeJwt(assertion)).not.toHaveProperty("private_key");
  });

  test("a private_key that is not an RSA key refuses the grant with a clear channel error", async () => {
    const key = JSON.stringify({
      ...account.json,
      private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    });
    await expect(vertexProvider.grant!.request(channel({ key }))).rejects.toThrow(
      "private_key could not be read as an RSA private key",
    );
    // A failed key read must leave nothing behind for the next hash (WebCrypto's importKey did, on Bun).
    expect(new Bun.CryptoHasher("sha256", "secret").update("value").digest("hex")).toHaveLength(64);
  });

  test("the token endpoint's reply gives the token and its lifetime", () => {
    expect(vertexProvider.grant!.tokenOf({ access_token: "ya29.x", expires_in: 3599 })).toEqual({
      token: "ya29.x",
      expiresIn: 3599,
    });
    expect(vertexProvider.grant!.tokenOf({ error: "invalid_grant" })).toBeUndefined();
  });
});
