import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { awsEvent } from "./aws-event-frame";

/** The credentials and region the fake accepts; requests signed otherwise are refused as AWS refuses them. */
export interface FakeBedrockOptions {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
  /** What every reply says and reports. */
  text?: string;
  usage?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  models?: string[];
}

export interface FakeBedrockRequest {
  method: string;
  /** As sent (the model id percent-encoded). */
  path: string;
  body: any;
  headers: Record<string, string>;
}

export interface FakeBedrock {
  url: string;
  requests: FakeBedrockRequest[];
  stop(): Promise<void>;
}

export const FAKE_BEDROCK_TEXT = "Hello from fake Bedrock";
export const FAKE_BEDROCK_USAGE = { input: 11, output: 4, cacheRead: 30, cacheWrite: 5 };

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

/** Bedrock's error reply: {message} with the type in x-amzn-errortype. */
const awsError = (status: number, type: string, message: string) =>
  Response.json(
    { message },
    { status, headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/` } },
  );

const amzDate = (value: string) =>
  new Date(value.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));

/**
 * The SigV4 check AWS makes, recomputed with smithy's signer (the AWS SDK's own, not the gateway's aws4): the
 * headers the request says it signed, its path, query and body, at its x-amz-date. Undefined when it holds.
 */
async function signatureRefusal(request: Request, url: URL, raw: string, o: FakeBedrockOptions, service: string) {
  const auth = AUTHORIZATION.exec(request.headers.get("authorization") ?? "");
  if (!auth) return awsError(403, "MissingAuthenticationTokenException", "Missing Authentication Token");
  const [, keyId, , region, signedService, signedNames] = auth;
  if (keyId !== o.accessKeyId || request.headers.get("x-amz-security-token") !== (o.sessionToken ?? null))
    return awsError(403, "UnrecognizedClientException", "The security token included in the request is invalid.");
  if (region !== o.region || signedService !== service)
    return awsError(403, "InvalidSignatureException", `Credential should be scoped to a valid region or service.`);
  const headers = Object.fromEntries(signedNames!.split(";").map((name) => [name, request.headers.get(name) ?? ""]));
  const signer = new SignatureV4({
    credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey, sessionToken: o.sessionToken },
    region: o.region,
    service,
    sha256: Sha256,
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: raw || undefined,
    },
    { signingDate: amzDate(request.headers.get("x-amz-date") ?? "") },
  );
  if (signed.headers.authorization !== request.headers.get("authorization"))
    return awsError(
      403,
      "InvalidSignatureException",
      "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.",
    );
  return undefined;
}

const binaryStream = (frames: Uint8Array[]) =>
  new Response(new Blob(frames as BlobPart[]), { headers: { "content-type": "application/vnd.amazon.eventstream" } });

/** An Anthropic message (invoke) and its stream of Anthropic events, each wrapped as a `chunk` {bytes}. */
function claudeReply(o: FakeBedrockOptions, stream: boolean, seq: number) {
  const text = o.text ?? FAKE_BEDROCK_TEXT;
  const u = o.usage ?? FAKE_BEDROCK_USAGE;
  const usage = {
    input_tokens: u.input,
    cache_read_input_tokens: u.cacheRead,
    cache_creation_input_tokens: u.cacheWrite,
    output_tokens: u.output,
  };
  const message = {
    id: `msg_bdrk_${seq}`,
    type: "message",
    role: "assistant",
    model: "claude-fake",
    stop_sequence: null,
  };
  if (!stream) return Response.json({ ...message, content: [{ type: "text", text }], stop_reason: "end_turn", usage });
  const events = [
    {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...(text.match(/\s*\S+/g) ?? []).map((piece) => ({
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: piece },
    })),
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: u.output },
    },
    {
      type: "message_stop",
      "amazon-bedrock-invocationMetrics": { inputTokenCount: u.input, outputTokenCount: u.output },
    },
  ];
  return binaryStream(
    events.map((e) => awsEvent("chunk", { bytes: Buffer.from(JSON.stringify(e)).toString("base64"), p: "abcd" })),
  );
}

/** A Converse reply and its converse-stream events. */
function converseReply(o: FakeBedrockOptions, stream: boolean) {
  const text = o.text ?? FAKE_BEDROCK_TEXT;
  const u = o.usage ?? FAKE_BEDROCK_USAGE;
  const usage = {
    inputTokens: u.input,
    outputTokens: u.output,
    totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite,
    cacheReadInputTokens: u.cacheRead,
    cacheWriteInputTokens: u.cacheWrite,
  };
  if (!stream)
    return Response.json({
      output: { message: { role: "assistant", content: [{ text }] } },
      stopReason: "end_turn",
      usage,
      metrics: { latencyMs: 5 },
    });
  return binaryStream([
    awsEvent("messageStart", { role: "assistant", p: "ab" }),
    ...(text.match(/\s*\S+/g) ?? []).map((piece) =>
      awsEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: piece } }),
    ),
    awsEvent("contentBlockStop", { contentBlockIndex: 0 }),
    awsEvent("messageStop", { stopReason: "end_turn" }),
    awsEvent("metadata", { usage, metrics: { latencyMs: 5 } }),
  ]);
}

const RUNTIME = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/;

/** A fake Bedrock (runtime and the control plane's model list) on loopback that verifies every SigV4 signature. */
export function startFakeBedrock(options: FakeBedrockOptions): FakeBedrock {
  const requests: FakeBedrockRequest[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const raw = await request.text();
      const path = url.pathname;
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        return awsError(
          400,
          "ValidationException",
          "Malformed input request, please reformat your input and try again.",
        );
      }
      requests.push({ method: request.method, path, body, headers: Object.fromEntries(request.headers) });
      const refusal = await signatureRefusal(request, url, raw, options, "bedrock");
      if (refusal) return refusal;
      if (request.method === "GET" && path === "/foundation-models")
        return Response.json({
          modelSummaries: (options.models ?? []).map((modelId) => ({ modelId, modelName: modelId })),
        });
      const route = RUNTIME.exec(path);
      if (request.method !== "POST" || !route) return awsError(404, "UnknownOperationException", "Unknown operation");
      const modelId = decodeURIComponent(route[1]!);
      const action = route[2]!;
      const claude = action.startsWith("invoke");
      if (claude !== /(^|\.)anthropic\.claude/.test(modelId))
        return awsError(400, "ValidationException", `The provided model identifier is invalid for ${action}.`);
      if (
        claude &&
        (body?.anthropic_version !== "bedrock-2023-05-31" || body.model !== undefined || body.stream !== undefined)
      )
        return awsError(
          400,
          "ValidationException",
          "anthropic_version: bedrock-2023-05-31 required; model and stream not allowed",
        );
      if (!claude && !Array.isArray(body?.messages))
        return awsError(400, "ValidationException", "messages is required");
      const stream = action.endsWith("stream");
      return claude ? claudeReply(options, stream, requests.length) : converseReply(options, stream);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
