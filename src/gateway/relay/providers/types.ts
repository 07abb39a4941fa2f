import type { EndpointKind } from "../../../shared/endpoint-kind";
import type { StreamWording } from "../../../shared/stream-wording";
import type { PivotEvent } from "../dialects/types";
import type { EventMapper } from "./event-stream";

/**
 * What a provider reads of a channel. The routing table's channel rows carry these fields under these names,
 * so the relay hands a row over as it is (nothing is copied per call).
 */
export interface ProviderChannel {
  readonly type: number;
  /** One key, or one per line for a channel created from several (the first is used). */
  readonly key: string;
  /** "" for the type's default. */
  readonly base_url: string;
  /** Per family: an API version, a region, ... ("" for the family's default). */
  readonly other: string;
  readonly openai_organization?: string;
}

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
  /** POST unless said. */
  method?: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  /** The body in the upstream's own dialect; absent: the client's body is sent as it is. */
  body?: string;
}

/** What an upstream's error reply says, as far as it says it. */
export interface UpstreamError {
  message?: string;
  code?: string;
  type?: string;
}

/** One page of an upstream's model list: its model ids and, when more follow, the next page's cursor. */
export interface ModelPage {
  ids: unknown[];
  next?: unknown;
}

/** How the family's upstream lists its models (GETs of JSON, page after page). */
export interface ModelListing {
  /** The family's types whose upstream lists models; absent: all of them. */
  readonly types?: ReadonlySet<number>;
  /** The page's address under the channel's base URL; `cursor` is the previous page's `next` (undefined first). */
  url(base: string, channel: ProviderChannel, cursor: string | undefined): string;
  /**
   * `url` is the page's address (families that sign requests sign it); `token` the bearer token minted through
   * the family's `grant`, for a family that has one.
   */
  headers(channel: ProviderChannel, url?: string, token?: string): Record<string, string>;
  /** The page a reply holds; undefined when the reply is not a model list. */
  page(reply: any): ModelPage | undefined;
}

/** How the family's upstream reports the account's balance (GETs of JSON, in order). */
export interface BalanceQuery {
  /** The family's types whose upstream reports a balance; absent: all of them. */
  readonly types?: ReadonlySet<number>;
  /** The addresses to read under the channel's base URL, `now` in unix seconds. */
  urls(base: string, now: number): string[];
  headers(channel: ProviderChannel): Record<string, string>;
  /** USD left, from the replies in the order of `urls`; undefined when they do not tell a balance. */
  balanceOf(replies: any[]): number | undefined;
}

/** A token endpoint's request (an OAuth grant), as a family that authenticates with short-lived tokens builds it. */
export interface TokenRequest {
  url: string;
  body: string;
  contentType: string;
}

/** How a family whose upstream takes short-lived bearer tokens (not the channel's key) gets one. */
export interface TokenGrant {
  /** Whose token a channel uses: channels of one account share it. Throws a ChannelConfigError for an unusable key. */
  account(channel: ProviderChannel): string;
  /** The token endpoint's request (signing it is asynchronous). */
  request(channel: ProviderChannel): Promise<TokenRequest>;
  /** The token and its lifetime in seconds, from the endpoint's JSON reply; undefined when it holds none. */
  tokenOf(reply: any): { token: string; expiresIn: number } | undefined;
}

/** One task as its upstream reports it: its id, and what it says in the task table's columns (times in seconds). */
export interface TaskReport {
  id: string;
  columns: Record<string, string | number>;
}

/** What the upstream answered to a task's submission. */
export type TaskSubmission =
  /** The upstream took the task: its id, the reply's code and words, and the reply as the client gets it. */
  | { taken: true; id: string; code: number; description: string; reply: Record<string, unknown> }
  /** Refused: `busy` when the upstream's queue is full (another channel may take it). */
  | { taken: false; code: number; description: string; busy: boolean };

/** How a family whose upstream runs long tasks (drawing, music) takes them and reports on them. */
export interface TaskFamily {
  /** The task table's platform column, and the log row's family. */
  readonly platform: string;
  /** The submission at the client's `path` (the mode prefix included) with its JSON body, in the upstream's terms. */
  submit(channel: ProviderChannel, path: string, body: string): UpstreamRequest;
  /** What a submission's reply (its status and parsed JSON, undefined when not JSON) says. */
  submitted(status: number, reply: unknown): TaskSubmission;
  /** The request reading the tasks `ids` at once; `action` is the tasks' action (families that ask by action). */
  fetch(channel: ProviderChannel, ids: string[], action: string): UpstreamRequest;
  /** The tasks a fetch reply reports (those it does not name are left as they are). */
  reports(reply: unknown): TaskReport[];
  /** The request reading a finished image's seed, for a family that has it. */
  imageSeed?(channel: ProviderChannel, id: string): UpstreamRequest;
}

/**
 * One upstream family: the channel types it serves, how to address a channel and authenticate to it, and — for
 * families that do not speak OpenAI's dialect — how to translate; its model list and balance when the upstream
 * has them. Without the optional hooks a family is OpenAI-shaped and the relay passes requests and replies
 * through untouched. Providers are pure: they decide nothing about money and touch no storage.
 */
export interface Provider {
  /** The channel types served (facts in src/shared/channel-types.ts); a type no family claims has no provider. */
  readonly types: readonly number[];
  /** What a blank `other` stands for, for a family that reads `other`. */
  readonly otherDefault?: string;
  /**
   * May throw a RelayError (400) for a request the family cannot express, a ChannelConfigError for a channel it
   * cannot address. `token` is the bearer token minted through `grant`, for a family that has one.
   */
  request(channel: ProviderChannel, call: UpstreamCall, token?: string): UpstreamRequest;
  /** Present when the family's upstream takes a token minted from the channel's key, not the key itself. */
  readonly grant?: TokenGrant;
  /** Endpoint kinds the family serves; absent: all of them. */
  endpoints?: ReadonlySet<EndpointKind>;
  /** The upstream's JSON reply in OpenAI's shape (a chat.completion with OpenAI usage). */
  mapResponse?(reply: any, model: string): Record<string, unknown>;
  /**
   * The upstream's event stream as OpenAI chat.completion.chunk events: the upstream's usage in a final
   * usage-only chunk (choices: []) when it reported one, then [DONE] when the upstream finished cleanly. An error
   * event the family writes itself (when the upstream's says no message) is worded by `wording`; absent: as written.
   */
  mapStream?(upstream: ReadableStream<Uint8Array>, model: string, wording?: StreamWording): ReadableStream<Uint8Array>;
  /**
   * The mapper `mapStream` reads the upstream's events with, when it maps them one by one: the relay then maps a
   * streamed reply as it arrives, pushed in the socket's turn (see MappedReader), instead of through `mapStream`.
   */
  streamMapper?(model: string, wording?: StreamWording): EventMapper;
  /** The content type of the upstream's streamed replies, when it is not text/event-stream. */
  readonly streamContentType?: string;
  /**
   * The upstream answers as an event stream only (the request asks for one whatever the client asked): a client
   * asking for a whole reply gets the mapped stream folded into one chat.completion.
   */
  readonly streamsOnly?: true;
  /** The upstream takes images as bytes only: the relay downloads a request's image URLs first (WorkerUrl or direct). */
  readonly needsImageBytes?: true;
  /** What `mapStream` gives for an upstream stream that has arrived whole and ended cleanly, mapped at once. */
  mapWholeStream?(upstream: Uint8Array, model: string, wording?: StreamWording): Uint8Array;
  /** The events `mapWholeStream` writes, as objects (none written as text); undefined when it cannot say them so. */
  mapWholeEvents?(upstream: Uint8Array, model: string, wording?: StreamWording): readonly PivotEvent[] | undefined;
  /** What an error reply (parsed JSON) says. */
  errorOf(reply: unknown): UpstreamError;
  /** Present when the family's upstream lists its models. */
  readonly models?: ModelListing;
  /** Present when the family's upstream reports a balance. */
  readonly balance?: BalanceQuery;
  /** Present for a family of long tasks (Midjourney-proxy, Suno): it serves the task relays, no OpenAI endpoint. */
  readonly tasks?: TaskFamily;
}
