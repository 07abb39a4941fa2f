import { asWritten } from "../../../../shared/stream-wording";
import { appCounts } from "../app-chat/usage";
import type { EventMapper } from "../event-stream";
import { parseEvent } from "../event-stream";
import { ChunkWriter } from "../openai-shape";

/**
 * Dify's chat stream: message/agent_message answers → content; agent_thought → reasoning; message_end → finish,
 * its metadata.usage, [DONE]; error → an error event. Workflow and ping events carry nothing for the client.
 */
export function difyStreamMapper(model: string, wording = asWritten): EventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  return {
    event(data) {
      const e = parseEvent(data);
      switch (e?.event) {
        case "message":
        case "agent_message":
          if (e.message_id) out.id = `chatcmpl-${e.message_id}`;
          return out.delta(String(e.answer ?? ""));
        case "agent_thought":
          return out.delta("", typeof e.thought === "string" ? e.thought : "");
        case "message_end": {
          const u = e.metadata?.usage;
          const counts = appCounts(u?.prompt_tokens, u?.completion_tokens);
          return out.delta("", "", "stop") + (counts ? out.usage(counts) : "") + out.done();
        }
        case "error":
          return out.error(String(e.message ?? wording("upstream stream error")), String(e.code ?? "upstream_error"));
        default:
          return "";
      }
    },
    end: () => "",
  };
}
