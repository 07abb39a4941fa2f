import { parsedEvent } from "../../sse";
import type { NativePassage, NativeStreamTally } from "../types";
import { pivotUsage } from "./usage";

const replyText = (reply: any): string =>
  (Array.isArray(reply?.content) ? reply.content : [])
    .map((b: any) => (b?.type === "text" ? (b.text ?? "") : b?.type === "thinking" ? (b.thinking ?? "") : ""))
    .join("");

/**
 * Reads an Anthropic event stream for billing: message_start carries the input counts, message_delta the final
 * output count (newer API versions repeat the input counts there); text and thinking deltas are kept for a count.
 */
class MessagesTally implements NativeStreamTally {
  private counts: Record<string, unknown> | undefined = undefined;
  private ended = false;
  text = "";

  event(data: string): void {
    const e = parsedEvent(data);
    if (e === undefined) return;
    if (e?.type === "message_start" && e.message?.usage) this.counts = { ...e.message.usage };
    else if (e?.type === "message_delta" && e.usage) this.counts = { ...this.counts, ...e.usage };
    else if (e?.type === "message_stop") this.ended = true;
    else if (e?.type === "content_block_delta") this.text += e.delta?.text ?? e.delta?.thinking ?? "";
  }

  usage() {
    return this.ended && this.counts ? pivotUsage(this.counts) : undefined;
  }
}

/** Anthropic inbound on an Anthropic channel: /v1/messages as it came, its version and beta headers passed on. */
export const messagesPassage: NativePassage = {
  path: () => "/v1/messages",
  body: (json, raw, model) => (json.model === model ? raw : JSON.stringify({ ...json, model })),
  forwardedHeaders: ["anthropic-version", "anthropic-beta"],
  replyUsage: (reply) => (reply?.usage ? pivotUsage(reply.usage) : undefined),
  replyText,
  streamTally: () => new MessagesTally(),
};
