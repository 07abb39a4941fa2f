import { invalidRequest } from "../../service/relay/errors";
import type { StreamWording } from "../../shared/stream-wording";
import { readBodyLimited } from "../http/body";
import type { InboundDialect, RouteFacts } from "./dialects/types";
import { parseJsonObject, type RelayRequest } from "./parse";

/** A call that came in another dialect than OpenAI's: the client's own request, kept for a pass-through. */
export interface InboundCall {
  dialect: InboundDialect;
  route: RouteFacts;
  /** The client's body, parsed, and its text. */
  body: Record<string, any>;
  raw: string;
  /** The client's dialect headers (the dialect's forwardedHeaders it sent), for a native upstream. */
  headers: Record<string, string>;
  /** An embedding call: `json` is an OpenAI embeddings request, its reply goes back through `dialect.embeddings`. */
  embedding?: boolean;
  /** What the log row records when the call is translated (the dialect's translatedNotes). */
  notes?: Record<string, unknown>;
  /** How a translated stream words the errors the gateway writes into it (RelayErrorLanguage); absent: as written. */
  wording?: StreamWording;
}

/** Pivot fields OpenAI's API does not take: dropped when the pivot goes to an OpenAI-family upstream. */
const EXTENSIONS = ["thinking_budget", "top_k"];

/**
 * The pivot as an OpenAI-family upstream takes it: no extension fields, no reasoning text in past turns. A pivot
 * that has none of them, for the model it names, is its text as it is (`raw`).
 */
function openaiBody(pivot: Record<string, any>, raw: string, model: string): string {
  const untouched =
    pivot.model === model &&
    !EXTENSIONS.some((key) => key in pivot) &&
    !pivot.messages.some((m: any) => m.reasoning_content !== undefined);
  if (untouched) return raw;
  const body: Record<string, any> = { ...pivot, model };
  for (const key of EXTENSIONS) delete body[key];
  if (body.messages.some((m: any) => m.reasoning_content !== undefined)) {
    body.messages = body.messages.map(({ reasoning_content: _, ...m }: any) => m);
  }
  return JSON.stringify(body);
}

function forwarded(request: Request, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = request.headers.get(name);
    if (value) headers[name] = value;
  }
  return headers;
}

/**
 * A dialect's request read once and turned into the pivot, which the pipeline routes, charges and logs like an
 * OpenAI chat call. A streamed pivot always asks for usage (the dialect's reply reports it). `wording` is how the
 * gateway's own errors in its translated stream are worded.
 */
export async function parseInboundRequest(
  request: Request,
  dialect: InboundDialect,
  route: RouteFacts,
  limit: number,
  wording: StreamWording,
): Promise<RelayRequest> {
  const raw = await readBodyLimited(request, limit);
  const body = parseJsonObject(raw);
  const pivot = dialect.toChat(body, route);
  if (pivot.model !== undefined && typeof pivot.model !== "string") throw invalidRequest("model must be a string");
  const model = String(pivot.model ?? "").trim();
  if (!model) throw invalidRequest("model is required", "model_required");
  const stream = pivot.stream === true;
  if (stream) pivot.stream_options = { include_usage: true };
  const headers = forwarded(request, dialect.native.forwardedHeaders);
  const inbound = { dialect, route, body, raw, headers, notes: dialect.translatedNotes?.(body), wording };
  let pivotText: string | undefined;
  const relayed: RelayRequest = {
    path: "/v1/chat/completions",
    model,
    stream,
    clientWantsUsage: true,
    json: pivot,
    // Made when first read: a family that translates builds its body from the pivot itself and never asks.
    get raw() {
      pivotText ??= JSON.stringify(pivot);
      return pivotText;
    },
    set raw(text) {
      pivotText = text;
    },
    inbound,
    // `raw` as it is when the call is sent: the prompt screen may have rewritten the pivot (masked words) since.
    upstream: (upstreamModel) => ({
      body: openaiBody(pivot, relayed.raw, upstreamModel),
      contentType: "application/json",
      stream,
    }),
  };
  return relayed;
}
