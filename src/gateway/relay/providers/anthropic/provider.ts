import { channelBaseUrl } from "../channel";
import { openaiErrorOf } from "../error-shape";
import { mapEventStream, parseEvent, type EventMapper } from "../event-stream";
import {
  ChunkWriter,
  chatCompletion,
  chatTurns,
  isNumber,
  stopList,
  tokenCount,
  type FinishReason,
  type Part,
  type TokenCounts,
} from "../openai-shape";
import type { Provider, ProviderChannel, UpstreamCall } from "../types";
import { anthropicHeaders } from "./headers";
import { anthropicModels } from "./models";

const FAMILY = "Anthropic";
/**
 * The Messages API requires max_tokens. When the client sets none (max_completion_tokens or max_tokens)
 * we ask for 4096: the largest output every Claude model accepts (Claude 3 models top out there), so
 * the request is valid whatever model the channel maps to.
 */
export const DEFAULT_MAX_TOKENS = 4096;

const FINISH: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};
const finishOf = (reason: unknown): FinishReason => FINISH[String(reason)] ?? "stop";

function contentOf(parts: Part[]): string | object[] {
  if (parts.length === 1 && "text" in parts[0]!) return parts[0].text;
  return parts.map((p) => {
    if ("text" in p) return { type: "text", text: p.text };
    if ("image" in p)
      return { type: "image", source: { type: "base64", media_type: p.image.mediaType, data: p.image.data } };
    return { type: "image", source: { type: "url", url: p.imageUrl } };
  });
}

/** The Messages API body for an OpenAI chat request. */
export function messagesBody(body: Record<string, any>, model: string, stream: boolean): Record<string, unknown> {
  const { system, turns } = chatTurns(body, FAMILY);
  const out: Record<string, unknown> = {
    model,
    max_tokens: tokenCount(body.max_completion_tokens) || tokenCount(body.max_tokens) || DEFAULT_MAX_TOKENS,
    messages: turns.map((t) => ({ role: t.role, content: contentOf(t.parts) })),
  };
  if (system) out.system = system;
  // Passed as given: Claude takes 0..1 and answers 400 (relayed with its status) to more.
  if (isNumber(body.temperature)) out.temperature = body.temperature;
  if (isNumber(body.top_p)) out.top_p = body.top_p;
  const stop = stopList(body.stop);
  if (stop) out.stop_sequences = stop;
  if (typeof body.user === "string" && body.user) out.metadata = { user_id: body.user };
  if (stream) out.stream = true;
  return out;
}

/**
 * Claude's input_tokens exclude the prompt-cache reads and writes; OpenAI's prompt_tokens include them,
 * with the reads as cached_tokens (billed at the cache ratio) and the writes as cached_creation_tokens (billed
 * at the create-cache ratio).
 */
function countsOf(u: any): TokenCounts {
  const cached = tokenCount(u?.cache_read_input_tokens);
  const cacheWrite = tokenCount(u?.cache_creation_input_tokens);
  return {
    prompt: tokenCount(u?.input_tokens) + cached + cacheWrite,
    completion: tokenCount(u?.output_tokens),
    cached,
    cacheWrite,
  };
}

function mapMessage(reply: any, model: string) {
  let content = "";
  let reasoning = "";
  for (const block of Array.isArray(reply?.content) ? reply.content : []) {
    if (block?.type === "text") content += block.text ?? "";
    else if (block?.type === "thinking") reasoning += block.thinking ?? "";
  }
  return chatCompletion({
    id: `chatcmpl-${reply?.id ?? crypto.randomUUID()}`,
    model: reply?.model ?? model,
    choices: [{ content, reasoning, finish: finishOf(reply?.stop_reason) }],
    usage: reply?.usage ? countsOf(reply.usage) : undefined,
  });
}

/** message_start → role chunk; text/thinking deltas → content/reasoning chunks; message_delta → finish; message_stop → usage, [DONE]. */
function streamMapper(model: string): EventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  let usage: any;
  return {
    event(data) {
      const e = parseEvent(data);
      switch (e?.type) {
        case "message_start":
          if (e.message?.id) out.id = `chatcmpl-${e.message.id}`;
          if (e.message?.model) out.model = e.message.model;
          if (e.message?.usage) usage = { ...e.message.usage };
          return out.delta("");
        case "content_block_start":
          return e.content_block?.type === "text" ? out.delta(e.content_block.text ?? "") : "";
        case "content_block_delta":
          if (e.delta?.type === "text_delta") return out.delta(e.delta.text ?? "");
          if (e.delta?.type === "thinking_delta") return out.delta("", e.delta.thinking ?? "");
          return "";
        case "message_delta":
          // output_tokens here is the final count; newer API versions may repeat the input counts too.
          if (e.usage) usage = { ...usage, ...e.usage };
          return out.delta("", "", finishOf(e.delta?.stop_reason));
        case "message_stop":
          return (usage ? out.usage(countsOf(usage)) : "") + out.done();
        case "error":
          return out.error(
            String(e.error?.message ?? "upstream stream error"),
            String(e.error?.type ?? "upstream_error"),
          );
        default:
          return "";
      }
    },
    // Without message_stop the stream broke off: no usage is claimed (the relay counts) and no [DONE].
    end: () => "",
  };
}

/** Anthropic Messages API: `<base>/v1/messages`, `x-api-key` and `anthropic-version` headers; chat only. */
export const anthropicProvider: Provider = {
  types: [14],
  endpoints: new Set(["chat"]),
  request(channel: ProviderChannel, call: UpstreamCall) {
    const json = call.json ?? JSON.parse(String(call.body));
    return {
      url: `${channelBaseUrl(channel)}/v1/messages`,
      headers: { ...anthropicHeaders(channel), "content-type": "application/json" },
      body: JSON.stringify(messagesBody(json, call.model, call.stream)),
    };
  },
  mapResponse: mapMessage,
  mapStream: (upstream, model) => mapEventStream(upstream, streamMapper(model)),
  errorOf: openaiErrorOf,
  models: anthropicModels,
};
