import { ChunkWriter } from "../openai-shape";
import { converseCounts, converseFinishOf } from "./converse-reply";
import { exceptionMessage, type AwsEventMapper } from "./event-frames";

/**
 * converse-stream: messageStart → role chunk; text and reasoning deltas → content/reasoning chunks; a toolUse
 * block start → a tool call (id, name), its input deltas → argument deltas; messageStop → finish; metadata →
 * usage and [DONE] (it is the last event of a complete stream).
 */
export function converseStreamMapper(model: string): AwsEventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  // Converse numbers content blocks of every kind; OpenAI numbers tool calls only.
  const toolIndex = new Map<number, number>();
  return {
    event(e) {
      if (e.messageType !== "event") return out.error(exceptionMessage(e), e.type || "upstream_error");
      const p = JSON.parse(e.payload);
      switch (e.type) {
        case "messageStart":
          return out.delta("");
        case "contentBlockStart": {
          const tool = p?.start?.toolUse;
          if (!tool) return "";
          const index = toolIndex.size;
          toolIndex.set(p.contentBlockIndex, index);
          return out.toolCall(index, "", { id: String(tool.toolUseId), name: String(tool.name) });
        }
        case "contentBlockDelta": {
          const d = p?.delta;
          if (typeof d?.text === "string") return out.delta(d.text);
          if (typeof d?.reasoningContent?.text === "string") return out.delta("", d.reasoningContent.text);
          if (typeof d?.toolUse?.input === "string" && toolIndex.has(p.contentBlockIndex))
            return out.toolCall(toolIndex.get(p.contentBlockIndex)!, d.toolUse.input);
          return "";
        }
        case "messageStop":
          return out.delta("", "", converseFinishOf(p?.stopReason));
        case "metadata":
          return (p?.usage ? out.usage(converseCounts(p.usage)) : "") + out.done();
        default:
          return "";
      }
    },
    // Without metadata the stream broke off: no usage is claimed (the relay counts) and no [DONE].
    end: () => "",
  };
}
