import type { StreamWording } from "../../../../shared/stream-wording";
import { eventData, SseSplitter } from "../../sse";
import type { ResponsesContext } from "./response-object";
import { ResponsesStreamWriter } from "./stream-writer";

/**
 * A pivot chunk SSE stream (bytes: `data: {chat.completion.chunk}` events, a usage-only chunk, `data: [DONE]`)
 * → the Responses event stream answering the request in `context`, its own error events worded by `wording`.
 */
export function chatStreamToResponses(
  body: ReadableStream<Uint8Array>,
  context: ResponsesContext,
  wording?: StreamWording,
) {
  const writer = new ResponsesStreamWriter(context, wording);
  const splitter = new SseSplitter();
  const encoder = new TextEncoder();
  const emit = (controller: TransformStreamDefaultController<Uint8Array>, text: string) => {
    if (text) controller.enqueue(encoder.encode(text));
  };
  const translate = (controller: TransformStreamDefaultController<Uint8Array>, events: string[]) => {
    for (const event of events) {
      const data = eventData(event);
      if (data !== undefined) emit(controller, writer.push(data));
    }
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start: (controller) => emit(controller, writer.start()),
      transform: (chunk, controller) => translate(controller, splitter.push(chunk)),
      flush: (controller) => {
        translate(controller, splitter.rest());
        emit(controller, writer.end());
      },
    }),
  );
}
