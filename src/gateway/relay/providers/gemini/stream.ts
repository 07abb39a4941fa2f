import { asWritten } from "../../../../shared/stream-wording";
import { type EventMapper, parseEvent } from "../event-stream";
import { ChunkWriter } from "../openai-shape";
import { countsOf, finishOf, partsOfCandidate } from "./reply";

/**
 * Each chunk carries its text and the usage so far; the last one the finish reason and the final usage.
 * Function calls arrive whole: each becomes one tool-call delta with its id, name and all its arguments.
 * The stream has no end marker: a clean end of the body is the end, then come usage and [DONE].
 */
export function streamMapper(model: string, wording = asWritten): EventMapper {
  const out = new ChunkWriter(undefined, model);
  let usage: any;
  let seen = false;
  let calls = 0;
  return {
    writer: out,
    event(data) {
      const e = parseEvent(data);
      if (!e) return "";
      if (e.error)
        return out.error(
          String(e.error.message ?? wording("upstream stream error")),
          String(e.error.status ?? "upstream_error"),
        );
      if (!seen && e.responseId) out.id = `chatcmpl-${e.responseId}`;
      if (e.modelVersion) out.model = e.modelVersion;
      seen = true;
      if (e.usageMetadata) usage = e.usageMetadata;
      const candidate = e.candidates?.[0];
      const { content, reasoning, toolCalls } = partsOfCandidate(candidate);
      const blocked = !candidate && e.promptFeedback?.blockReason;
      const called = calls + toolCalls.length > 0;
      const finish = candidate?.finishReason
        ? finishOf(candidate.finishReason, called)
        : blocked
          ? "content_filter"
          : null;
      if (!toolCalls.length) return out.delta(content, reasoning, finish);
      let text = content || reasoning ? out.delta(content, reasoning) : "";
      for (const call of toolCalls) text += out.toolCall(calls++, call.arguments, call);
      return text + (finish ? out.delta("", "", finish) : "");
    },
    end: () => (seen ? (usage ? out.usage(countsOf(usage)) : "") + out.done() : ""),
  };
}
