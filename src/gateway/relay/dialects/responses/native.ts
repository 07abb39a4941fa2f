import { parsedEvent } from "../../sse";
import { responsesApiMode } from "../../../../shared/responses-api";
import type { NativePassage, NativeStreamTally, PivotUsage } from "../types";
import { lacksResponses } from "./lacks-responses";

/** A Responses usage object (input_tokens, output_tokens and their details) as the pivot's usage. */
export function responsesPivotUsage(usage: any): PivotUsage | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  return {
    prompt_tokens: Number(usage.input_tokens) || 0,
    completion_tokens: Number(usage.output_tokens) || 0,
    prompt_tokens_details: { cached_tokens: Number(usage.input_tokens_details?.cached_tokens) || 0 },
    completion_tokens_details: { reasoning_tokens: Number(usage.output_tokens_details?.reasoning_tokens) || 0 },
  };
}

/** The text of a response's output messages and reasoning summaries (counted when it reports no usage). */
function replyText(reply: any): string {
  if (typeof reply?.output_text === "string") return reply.output_text;
  return (Array.isArray(reply?.output) ? reply.output : [])
    .flatMap((item: any) => (Array.isArray(item?.content) ? item.content : (item?.summary ?? [])))
    .map((part: any) => (typeof part?.text === "string" ? part.text : ""))
    .join("");
}

/** The events that end a response: each carries the whole response, its usage included. */
const FINAL_EVENTS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** Reads a Responses event stream for billing: usage on the final event, the id on the first, text from deltas. */
class ResponsesTally implements NativeStreamTally {
  private counts: PivotUsage | undefined = undefined;
  private id: string | undefined = undefined;
  text = "";

  event(data: string): void {
    const e = parsedEvent(data);
    if (e === undefined) return;
    if (typeof e?.response?.id === "string") this.id ??= e.response.id;
    if (FINAL_EVENTS.has(e?.type)) this.counts = responsesPivotUsage(e.response?.usage);
    else if (e?.type === "response.output_text.delta" || e?.type === "response.reasoning_summary_text.delta") {
      this.text += typeof e.delta === "string" ? e.delta : "";
    }
  }

  usage() {
    return this.counts;
  }

  replyId() {
    return this.id;
  }
}

/** Responses inbound on an OpenAI-family channel: /v1/responses as it came, with the upstream model. */
export const responsesPassage: NativePassage = {
  path: () => "/v1/responses",
  body: (json, raw, model) => (json.model === model ? raw : JSON.stringify({ ...json, model })),
  forwardedHeaders: [],
  replyUsage: (reply) => responsesPivotUsage(reply?.usage),
  replyText,
  replyId: (reply) => (typeof reply?.id === "string" ? reply.id : undefined),
  streamTally: () => new ResponsesTally(),
  fallback: { mode: responsesApiMode, lacksEndpoint: lacksResponses },
};
