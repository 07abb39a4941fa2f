import { describe, expect, test } from "bun:test";
import aws4 from "aws4";
import { signedHeaders } from "../../../src/gateway/relay/providers/bedrock/sign";
import { startFakeBedrock } from "../../support/fake-bedrock";

/** AWS's published SigV4 test suite example credentials. */
const EXAMPLE = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

describe("SigV4 signing of Bedrock requests", () => {
  test("the signer reproduces AWS's get-vanilla test vector (the library the provider signs with)", () => {
    const signed = aws4.sign(
      {
        host: "example.amazonaws.com",
        path: "/",
        method: "GET",
        service: "service",
        region: "us-east-1",
        headers: { "X-Amz-Date": "20150830T123600Z" },
      },
      EXAMPLE,
    );
    expect(signed.headers!.Authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    );
  });

  test("a signed invoke (model id with ':' percent-encoded, session token) passes the fake's independent check; a wrong secret does not", async () => {
    const access = {
      credentials: { ...EXAMPLE, sessionToken: "session-token-value" },
      region: "eu-west-3",
    };
    const fake = startFakeBedrock({ ...EXAMPLE, sessionToken: "session-token-value", region: "eu-west-3" });
    try {
      const url = `${fake.url}/model/${encodeURIComponent("anthropic.claude-3-haiku-20240307-v1:0")}/invoke`;
      const body = JSON.stringify({ anthropic_version: "bedrock-2023-05-31", max_tokens: 5, messages: [] });
      const ok = await fetch(url, {
        method: "POST",
        headers: signedHeaders(url, "POST", "bedrock", access, body),
        body,
      });
      expect(ok.status).toBe(200);
      expect(fake.requests.at(-1)!.headers["x-amz-security-token"]).toBe("session-token-value");
      const wrong = { ...access, credentials: { ...access.credentials, secretAccessKey: "not-the-secret" } };
      const refused = await fetch(url, {
        method: "POST",
        headers: signedHeaders(url, "POST", "bedrock", wrong, body),
        body,
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get("x-amzn-errortype")).toStartWith("InvalidSignatureException");
      const list = `${fake.url}/foundation-models`;
      expect((await fetch(list, { headers: signedHeaders(list, "GET", "bedrock", access) })).status).toBe(200);
    } finally {
      await fake.stop();
    }
  });
});
