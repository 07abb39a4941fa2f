import type { EventMapper } from "../event-stream";
import { parseEvent } from "../event-stream";
import { ChunkWriter } from "../openai-shape";
import { finishOf } from "./chat-reply";
import { countsOf } from "./usage";

/**
 * message-start → role chunk; content-delta → content; tool-plan-delta → reasoning; tool-call-start → a tool
 * call (id and name), tool-call-delta → its argument text; message-end → finish, usage, [DONE].
 */
export function cohereStreamMapper(model: string): EventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  let calls = 0;
  return {
    event(data) {
      const e = parseEvent(data);
      const message = e?.delta?.message;
      switch (e?.type) {
        case "message-start":
          if (e.id) out.id = `chatcmpl-${e.id}`;
          return out.delta("");
        case "content-start":
        case "content-delta":
          return out.delta(String(message?.content?.text ?? ""));
        case "tool-plan-delta":
          return out.delta("", String(message?.tool_plan ?? ""));
        case "tool-call-start": {
          const call = message?.tool_calls ?? {};
          const args = String(call.function?.arguments ?? "");
          return out.toolCall(calls++, args, { id: String(call.id ?? ""), name: String(call.function?.name ?? "") });
        }
        case "tool-call-delta":
          return calls ? out.toolCall(calls - 1, String(message?.tool_calls?.function?.arguments ?? "")) : "";
        case "message-end": {
          const counts = countsOf(e.delta?.usage);
          return out.delta("", "", finishOf(e.delta?.finish_reason)) + (counts ? out.usage(counts) : "") + out.done();
        }
        default:
          return "";
      }
    },
    // Without message-end the stream broke off: no usage is claimed (the relay counts) and no [DONE].
    end: () => "",
  };
}
