import { asWritten } from "../../../../shared/stream-wording";
import { appCounts } from "../app-chat/usage";
import type { EventMapper } from "../event-stream";
import { parseEvent } from "../event-stream";
import { ChunkWriter } from "../openai-shape";

/**
 * Coze's chat stream (named events): conversation.message.delta of the answer → content (of reasoning →
 * reasoning); conversation.chat.completed → finish, usage, [DONE]; conversation.chat.failed and error → an
 * error event. The completed message repeats the deltas and is passed over.
 */
export function cozeStreamMapper(model: string, wording = asWritten): EventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  return {
    named: true,
    event(data, name) {
      const e = parseEvent(data);
      switch (name) {
        case "conversation.chat.created":
          if (e?.id) out.id = `chatcmpl-${e.id}`;
          return out.delta("");
        case "conversation.message.delta":
          if (e?.type !== "answer") return "";
          return out.delta(String(e.content ?? ""), String(e.reasoning_content ?? ""));
        case "conversation.chat.completed": {
          const counts = appCounts(e?.usage?.input_count, e?.usage?.output_count);
          return out.delta("", "", "stop") + (counts ? out.usage(counts) : "") + out.done();
        }
        case "conversation.chat.failed":
          return out.error(
            String(e?.last_error?.msg || wording("the Coze chat failed")),
            String(e?.last_error?.code ?? "upstream_error"),
          );
        case "error":
          return out.error(String(e?.msg ?? wording("upstream stream error")), String(e?.code ?? "upstream_error"));
        default:
          return "";
      }
    },
    end: () => "",
  };
}
