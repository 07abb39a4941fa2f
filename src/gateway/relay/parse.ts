import type { Endpoint } from "../../service/relay/endpoints";
import { invalidRequest } from "../../service/relay/errors";
import { decodedFormRequest, readBodyLimited } from "../http/body";
import type { InboundCall } from "./inbound-request";

/** An incoming relay call, read once; `upstream(model)` builds the body to forward with the upstream model name. */
export interface RelayRequest {
  path: string;
  model: string;
  stream: boolean;
  clientWantsUsage: boolean;
  json?: Record<string, any>;
  /** The JSON body as received ("" for form data). */
  raw: string;
  upstream(model: string): { body: string | FormData; contentType: string | null; stream: boolean };
  /** Set when the call came in another dialect: `json` and `raw` are then its pivot (an OpenAI chat request). */
  inbound?: InboundCall;
}

const STREAM_USAGE_KINDS = new Set(["chat", "completions"]);

/** A JSON object's text (with a model, so not empty) with `stream_options.include_usage` added as its last member. */
const withUsageRequested = (objectText: string) =>
  `${objectText.slice(0, objectText.lastIndexOf("}"))},"stream_options":{"include_usage":true}}`;

export function parseJsonObject(text: string): Record<string, any> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidRequest("request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidRequest("request body must be a JSON object");
  return body as Record<string, any>;
}

/** A form's text fields (files left out), read like a JSON body's members (an image edit's `n`, for one). */
function textFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string") fields[key] = value;
  return fields;
}

export async function parseRelayRequest(
  request: Request,
  path: string,
  endpoint: Endpoint,
  limit: number,
): Promise<RelayRequest> {
  if (endpoint.multipart) {
    const source = await decodedFormRequest(request, limit);
    let form: FormData;
    try {
      form = (await source.formData()) as unknown as FormData;
    } catch {
      throw invalidRequest("request body must be multipart/form-data");
    }
    const model = String(form.get("model") ?? "") || endpoint.defaultModel || "";
    if (!model) throw invalidRequest("model is required", "model_required");
    return {
      path,
      model,
      stream: false,
      clientWantsUsage: false,
      json: textFields(form),
      raw: "",
      upstream(upstreamModel) {
        const copy = new FormData();
        for (const [key, value] of form.entries()) copy.append(key, key === "model" ? upstreamModel : value);
        if (!form.has("model")) copy.append("model", upstreamModel);
        return { body: copy, contentType: null, stream: false };
      },
    };
  }
  const text = await readBodyLimited(request, limit);
  const json = parseJsonObject(text);
  if (json.model !== undefined && typeof json.model !== "string") throw invalidRequest("model must be a string");
  const model = (json.model as string | undefined)?.trim() || endpoint.defaultModel || "";
  if (!model) throw invalidRequest("model is required", "model_required");
  const stream = Boolean(endpoint.streams) && json.stream === true;
  const clientWantsUsage = json.stream_options?.include_usage === true;
  return new JsonRelayRequest(path, model, stream, clientWantsUsage, json, text, endpoint.kind);
}

/**
 * A JSON relay call (a class, not a literal whose `upstream` closes over the parse: a call waiting for its
 * upstream's first byte would keep the parse's whole scope).
 */
class JsonRelayRequest implements RelayRequest {
  constructor(
    readonly path: string,
    readonly model: string,
    readonly stream: boolean,
    readonly clientWantsUsage: boolean,
    readonly json: Record<string, any>,
    public raw: string,
    private readonly kind: Endpoint["kind"],
  ) {}

  upstream(upstreamModel: string) {
    // The body as it is now: the sensitive-word filter may have masked it (raw and json together).
    const { raw: text, json, stream } = this;
    const injectUsage = stream && STREAM_USAGE_KINDS.has(this.kind) && !this.clientWantsUsage;
    if (upstreamModel === json.model) {
      if (!injectUsage) return { body: text, contentType: "application/json", stream };
      if (json.stream_options === undefined)
        return { body: withUsageRequested(text), contentType: "application/json", stream };
    }
    const body: Record<string, any> = { ...json, model: upstreamModel };
    if (injectUsage) body.stream_options = { ...(json.stream_options ?? {}), include_usage: true };
    return { body: JSON.stringify(body), contentType: "application/json", stream };
  }
}
