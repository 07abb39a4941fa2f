import type { StreamWording } from "../../../../shared/stream-wording";
import type { EventMapper } from "../event-stream";
import { mapMessage } from "../anthropic/reply";
import { messagesBody } from "../anthropic/request";
import { streamMapper as anthropicStream } from "../anthropic/stream";
import { mapGenerateContent } from "../gemini/reply";
import { generateContentBody } from "../gemini/request";
import { streamMapper as geminiStream } from "../gemini/stream";

/** The Messages API version Vertex's Claude endpoints take, in the body instead of a header. */
const ANTHROPIC_VERSION = "vertex-2023-10-16";

/** How Vertex serves one publisher's models: its path segment, methods, body and reply mapping. */
export interface Publisher {
  name: string;
  method(stream: boolean): string;
  body(json: Record<string, any>, model: string, stream: boolean): Record<string, unknown>;
  mapResponse(reply: any, model: string): Record<string, unknown>;
  streamMapper(model: string, wording?: StreamWording): EventMapper;
}

/** Claude: the Anthropic Messages body without `model` (it is in the address), through rawPredict. */
const anthropic: Publisher = {
  name: "anthropic",
  method: (stream) => (stream ? "streamRawPredict" : "rawPredict"),
  body(json, model, stream) {
    const { model: _, ...body } = messagesBody(json, model, stream);
    return { anthropic_version: ANTHROPIC_VERSION, ...body };
  },
  mapResponse: mapMessage,
  streamMapper: anthropicStream,
};

/** Gemini: the Gemini API's generateContent body and replies. */
const google: Publisher = {
  name: "google",
  method: (stream) => (stream ? "streamGenerateContent?alt=sse" : "generateContent"),
  body: (json, _model, stream) => generateContentBody(json, stream),
  mapResponse: mapGenerateContent,
  streamMapper: geminiStream,
};

/** Claude models (claude-sonnet-4@20250514, …) are Anthropic's; every other model is Google's. */
export const publisherOf = (model: string): Publisher => (/claude/i.test(model) ? anthropic : google);
