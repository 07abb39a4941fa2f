import type { ChannelRow } from "../../../db/schema";

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
}

/** One upstream family: how to address a channel and authenticate to it. Responses are OpenAI-shaped. */
export interface Provider {
  request(channel: ChannelRow, call: UpstreamCall): { url: string; headers: Record<string, string> };
}
