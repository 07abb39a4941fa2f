import type { StreamWording } from "../../../../shared/stream-wording";
import { streamMapper } from "../anthropic/stream";
import { ChunkWriter } from "../openai-shape";
import { exceptionMessage, type AwsEventMapper } from "./event-frames";

/**
 * invoke-with-response-stream: each `chunk` event's payload is {bytes: base64 of one Anthropic stream event},
 * mapped as the Anthropic family maps its SSE events; an exception event ends the stream with an error.
 */
export function invokeStreamMapper(model: string, wording?: StreamWording): AwsEventMapper {
  const anthropic = streamMapper(model, wording);
  return {
    event(e) {
      if (e.messageType !== "event")
        return new ChunkWriter("", model).error(exceptionMessage(e), e.type || "upstream_error");
      if (e.type !== "chunk") return "";
      const bytes = JSON.parse(e.payload)?.bytes;
      return typeof bytes === "string" ? anthropic.event(Buffer.from(bytes, "base64").toString("utf8")) : "";
    },
    end: anthropic.end,
  };
}
