/**
 * Relays 300 000 usual chat chunks (3 000 streams of 100) through StreamEvents, each a part of a socket's bytes
 * between its chunked coding's framing, for a test that reads this process's collector log.
 */
import { StreamEvents } from "../../src/gateway/relay/stream-events";
import type { StreamOptions } from "../../src/gateway/relay/stream-outcome";

const options = { kind: "chat", clientWantsUsage: false, startedAt: 0 } as StreamOptions;
const HEAD = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o",';
const chunks = Array.from({ length: 64 }, (_, i) => {
  const event = Buffer.from(`${HEAD}"choices":[{"index":0,"delta":{"content":"word${i} "},"finish_reason":null}]}\n\n`);
  return Buffer.concat([Buffer.from(`${event.length.toString(16)}\r\n`), event, Buffer.from("\r\n")]);
});
let written = 0;
for (let stream = 0; stream < 3000; stream++) {
  const events = new StreamEvents(options);
  for (let i = 0; i < 100; i++) {
    const socket = chunks[i & 63]!;
    const start = socket.indexOf(10) + 1;
    written += events.takeChunk(socket, start, socket.length - 2).length;
  }
}
console.log(written);
