import type { ChannelRow } from "../../../db/schema";
import type { EndpointKind } from "../../../service/relay/endpoints";

/** What the client asked for, as the relay forwards it. */
export interface UpstreamCall {
  /** The incoming path, e.g. /v1/chat/completions. */
  path: string;
  /** The upstream model name (after the channel's model mapping). */
  model: string;
  /** A JSON body, or form data for audio uploads. */
  body: string | FormData;
  contentType: string | null;
  stream: boolean;
  /** The client's JSON body as parsed (the relay has it already); families that rewrite the body read it. */
  json?: Record<string, any>;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  /** The body in the upstream's own dialect; absent: the client's body is sent as it is. */
  body?: string;
}

/**
 * One upstream family: how to address a channel and authenticate to it, and — for families that do not
 * speak OpenAI's dialect — how to translate. Without the optional hooks a family is OpenAI-shaped and
 * the relay passes requests and replies through untouched.
 */
export interface Provider {
  /** May throw a RelayError (400) for a request the family cannot express. */
  request(channel: ChannelRow, call: UpstreamCall): UpstreamRequest;
  /** Endpoint kinds the family serves; absent: all of them. */
  endpoints?: ReadonlySet<EndpointKind>;
  /** The upstream's JSON reply in OpenAI's shape (a chat.completion with OpenAI usage). */
  mapResponse?(reply: any, model: string): Record<string, unknown>;
  /**
   * The upstream's event stream as OpenAI chat.completion.chunk events: the upstream's usage in a final
   * usage-only chunk (choices: []) when it reported one, then [DONE] when the upstream finished cleanly.
   */
  mapStream?(upstream: ReadableStream<Uint8Array>, model: string): ReadableStream<Uint8Array>;
}
