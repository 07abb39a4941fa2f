import type { EventMapper } from "../event-stream";
import { parseEvent } from "../event-stream";
import { ChunkWriter } from "../openai-shape";
import { sourcesOf } from "./answer";

/** The library's stream {content, finish, documents}: content → content; the finishing event adds the sources. */
export function libraryStreamMapper(model: string): EventMapper {
  const out = new ChunkWriter(`chatcmpl-${crypto.randomUUID()}`, model);
  return {
    event(data) {
      const e = parseEvent(data);
      if (!e) return "";
      const text = String(e.content ?? "");
      if (!e.finish) return out.delta(text);
      return out.delta(text + sourcesOf(e.documents), "", "stop") + out.done();
    },
    end: () => "",
  };
}
