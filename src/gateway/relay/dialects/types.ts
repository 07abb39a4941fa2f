import type { StreamWording } from "../../../shared/stream-wording";

/**
 * An inbound dialect: how a client that speaks another API than OpenAI's chat completions is served.
 *
 * The relay works on one internal call shape, the pivot: an OpenAI chat-completions request, reply and
 * chunk stream, with a few extension fields where OpenAI has none (request `thinking_budget`, `top_k`;
 * message and delta `reasoning_content`; usage `prompt_tokens_details.cached_creation_tokens`). A dialect
 * turns its request into the pivot at the edge and the pivot's reply back into its own at the end; the
 * pipeline routes, charges and logs the pivot call in between, whatever the dialect.
 *
 * When the channel's family speaks the dialect natively (`nativeFamily`), nothing is translated: the
 * client's body goes upstream with only the model replaced, the reply comes back untouched, and the call
 * is billed from the upstream's usage as `native` reads it.
 *
 * A dialect module is pure: it imports only src/shared, the SSE helpers (../sse) and its own folder.
 * Refusals (what the pivot cannot express) throw DialectRefusal (src/shared/relay-error.ts) naming the
 * parameter; the relay answers them as a 400 in the dialect's error shape.
 *
 * Wiring a dialect (e.g. gemini/ or responses/ with their to-chat, from-chat and stream modules):
 *  1. `<dialect>/index.ts`: one object satisfying InboundDialect, built from those modules (see anthropic/).
 *  2. Its POST routes in ../dialect-routes.ts (DIALECT_ROUTES: path → dialect, action, and `facts(url)` when the
 *     URL names the model or streaming, as Gemini's /v1beta/models/{model}:streamGenerateContent does). They
 *     are served on Bun's router and on the application alike; every failure is answered with `errorBody`.
 *  3. When its native family is not yet in ../native-request.ts (AUTH_HEADERS), add the family's auth there.
 * The pipeline needs nothing more: it routes, charges (one consume row) and logs the pivot call, and records
 * `other.inbound` (the dialect's name) and `other.family` (the answering channel's family) in the log row.
 */

/** One pivot stream event as an object: a chunk (or an error event) as its `data:` JSON says it, or the end marker. */
export type PivotEvent = Record<string, any> | "[DONE]";

/**
 * A pivot stream that arrived whole: its bytes, or the events a provider mapped the upstream's stream to, never
 * written as text (the client's dialect translates the objects).
 */
export type WholePivot =
  | { bytes: Uint8Array; events?: undefined }
  | { events: readonly PivotEvent[]; bytes?: undefined };

/** The usage object of a pivot reply (OpenAI's, with the cache-write extension). */

export interface PivotUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cached_creation_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

/** A refusal as the dialect renders it: the status is kept, the body is the dialect's. */
export interface DialectErrorFacts {
  status: number;
  /** Already carries the request id. */
  message: string;
  /** OpenAI's error type and code (e.g. invalid_request_error / model_not_found), for dialects that keep them. */
  type: string;
  code: string;
}

/** What the route knows before the body is read: dialects that name the model or streaming in the URL say so here. */
export interface RouteFacts {
  url: URL;
  /** The model named in the path (Gemini's /v1beta/models/{model}:generateContent). */
  model?: string;
  /** The path says the reply streams (Gemini's :streamGenerateContent). */
  stream?: boolean;
  /** The call only counts its prompt's tokens (count_tokens): what only generation needs is not required. */
  countOnly?: boolean;
  /** The action the URL names after the model (Gemini's :generateContent, :embedContent, …). */
  action?: string;
}

/** The client's call as it came: its body and what its route says (for replies shaped by the request). */
export interface DialectCall {
  body: Record<string, any>;
  route: RouteFacts;
  /** How the stream writer words the errors it writes itself (RelayErrorLanguage); absent: as written. */
  wording?: StreamWording;
}

/** A dialect's embedding calls, served through the relay's embeddings path (OpenAI's /v1/embeddings). */
export interface DialectEmbeddings {
  /** The dialect's request → an OpenAI embeddings request (with the model). Throws DialectRefusal. */
  toOpenAI(body: Record<string, any>, route: RouteFacts): Record<string, any>;
  /** An OpenAI embeddings reply → the dialect's reply. */
  fromOpenAI(reply: Record<string, any>, route: RouteFacts): unknown;
}

/** Reading a native stream for billing: fed every event's data, asked for the usage at the end. */
export interface NativeStreamTally {
  event(data: string): void;
  /** The usage the upstream reported, once it did. */
  usage(): PivotUsage | undefined;
  /** Text generated so far (counted when the upstream reported no usage). */
  readonly text: string;
  /** The id the upstream gave the reply, for dialects whose replies can be fetched again by id. */
  replyId?(): string | undefined;
}

/** What the relay needs to pass a call through to a family that speaks the dialect natively. */
export interface NativePassage {
  /** The upstream path the client's call goes to, e.g. /v1/messages; `model` is the upstream model. */
  path(route: RouteFacts, model: string): string;
  /** The client's body as sent upstream with the upstream model (`raw` is its text, `json` parsed). */
  body(json: Record<string, any>, raw: string, model: string): string;
  /** Client headers forwarded upstream when present (lower case), e.g. anthropic-version. */
  forwardedHeaders: readonly string[];
  /** The usage in a native JSON reply. */
  replyUsage(reply: any): PivotUsage | undefined;
  /** The text of a native JSON reply (counted when it reports no usage). */
  replyText(reply: any): string;
  /** A fresh reader of one native event stream. */
  streamTally(): NativeStreamTally;
  /** How a native stream is framed when it is not SSE (Gemini's streamed JSON array); absent: always SSE. */
  streamFraming?(route: RouteFacts): "sse" | "json-array";
  /** The family's path prefix for a channel (Gemini's API version, from the channel's `other`); absent: none. */
  pathPrefix?(channelOther: string): string;
  /** The id the upstream gave a native JSON reply, for dialects whose replies can be fetched again by id. */
  replyId?(reply: any): string | undefined;
  /**
   * For a dialect that some upstreams of its native family lack (OpenAI-compatible servers without /v1/responses):
   * the upstream status that says the endpoint is missing (the call is then translated on the same channel, and
   * the channel remembered), and what the channel's `setting` JSON text says: "native" or "translate" force either
   * way, "auto" leaves it to the upstream's answer.
   */
  fallback?: { mode(setting: string): "auto" | "native" | "translate"; lacksEndpoint(status: number): boolean };
}

export interface InboundDialect {
  /** Recorded in the log row's `other.inbound`. */
  readonly name: string;
  /** The provider family that speaks this dialect ("anthropic", "gemini", "openai"), for pass-through. */
  readonly nativeFamily: string;
  /** Every family that speaks it, when more than `nativeFamily` (Responses: openai and azure). */
  readonly nativeFamilies?: readonly string[];
  /** The caller's key as an Authorization value ("Bearer sk-…"), or null when the request carries none. */
  authorization(request: Request, url: URL): string | null;
  /** The dialect's request body → the pivot request (with model and stream). Throws DialectRefusal. */
  toChat(body: Record<string, any>, route: RouteFacts): Record<string, any>;
  /** A pivot reply (chat.completion) → the dialect's reply body; `model` is the name the client asked for. */
  fromChat(reply: Record<string, any>, model: string, call: DialectCall): unknown;
  /**
   * A pivot chunk stream (OpenAI SSE: chunks, a usage-only chunk, [DONE]; `: comment` lines are keep-alive
   * pings) → the dialect's event stream. A stream ending without [DONE] broke off upstream.
   */
  streamFromChat(pivot: ReadableStream<Uint8Array>, model: string, call: DialectCall): ReadableStream<Uint8Array>;
  /**
   * What `streamFromChat` sends for a pivot stream that arrived whole, translated at once (no stream to read);
   * given as events, the pivot needs no parsing.
   */
  wholeStreamFromChat?(pivot: WholePivot, model: string, call: DialectCall): string;
  /**
   * For a dialect whose native family takes more than the pivot expresses: why this body cannot be translated
   * (thrown when a channel needs it translated; `toChat` then gave a pivot good for pricing only).
   */
  untranslatable?(body: Record<string, any>): Error | undefined;
  /** What a translated call records in its log row's `other` beyond the usual (e.g. the tools left out). */
  translatedNotes?(body: Record<string, any>): Record<string, unknown> | undefined;
  /** The content type of the dialect's streamed reply (text/event-stream, or application/json for a JSON array). */
  streamContentType?(route: RouteFacts): string;
  /** The reply to a count-tokens call; absent: Anthropic's `{input_tokens}`. */
  countReply?(tokens: number): unknown;
  /** Present when the dialect has embedding calls. */
  readonly embeddings?: DialectEmbeddings;
  /** The dialect's error body for a refusal; the status is kept. */
  errorBody(error: DialectErrorFacts): unknown;
  /** How a call passes through to `nativeFamily` untranslated. */
  readonly native: NativePassage;
}
