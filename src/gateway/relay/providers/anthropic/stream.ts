import { asWritten } from "../../../../shared/stream-wording";
import type { EventMapper } from "../event-stream";
import { parseEvent } from "../event-stream";
import { ChunkWriter } from "../openai-shape";
import { plainEvent, plainTextDelta } from "./plain-events";
import { countsOf, finishOf } from "./reply";

/**
 * message_start → role chunk; text/thinking deltas → content/reasoning chunks; a tool_use block → a tool
 * call (id and name), its input_json_delta pieces → that call's argument deltas; message_delta → finish;
 * message_stop → usage, [DONE].
 */
export function streamMapper(model: string, wording = asWritten): EventMapper {
  const out = new ChunkWriter(undefined, model);
  let usage: any;
  // Claude numbers content blocks of every kind; OpenAI numbers tool calls only.
  const toolIndex = new Map<number, number>();
  return {
    writer: out,
    event(data) {
      const text = plainTextDelta(data);
      if (text !== undefined) return out.delta(text);
      const e = plainEvent(data) ?? parseEvent(data);
      switch (e?.type) {
        case "message_start":
          if (e.message?.id) out.id = `chatcmpl-${e.message.id}`;
          if (e.message?.model) out.model = e.message.model;
          if (e.message?.usage) usage = { ...e.message.usage };
          return out.delta("");
        case "content_block_start": {
          const block = e.content_block;
          if (block?.type === "text") return out.delta(block.text ?? "");
          if (block?.type !== "tool_use") return "";
          const index = toolIndex.size;
          toolIndex.set(e.index, index);
          // A non-empty input here is the whole input (servers that do not stream it); {} is the usual opener.
          const given = block.input && Object.keys(block.input).length ? JSON.stringify(block.input) : "";
          return out.toolCall(index, given, { id: String(block.id), name: String(block.name) });
        }
        case "content_block_delta":
          if (e.delta?.type === "text_delta") return out.delta(e.delta.text ?? "");
          if (e.delta?.type === "thinking_delta") return out.delta("", e.delta.thinking ?? "");
          if (e.delta?.type === "input_json_delta" && toolIndex.has(e.index) && e.delta.partial_json)
            return out.toolCall(toolIndex.get(e.index)!, e.delta.partial_json);
          return "";
        case "message_delta":
          // output_tokens here is the final count; newer API versions may repeat the input counts too.
          if (e.usage) usage = { ...usage, ...e.usage };
          return out.delta("", "", finishOf(e.delta?.stop_reason));
        case "message_stop":
          return (usage ? out.usage(countsOf(usage)) : "") + out.done();
        case "error":
          return out.error(
            String(e.error?.message ?? wording("upstream stream error")),
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
