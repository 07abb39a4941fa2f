import { describe, expect, test } from "bun:test";
import { eventData, eventName, SseSplitter } from "../../src/gateway/relay/sse";

/** What a reader makes of an event: its name and its data (undefined for a comment). */
type Read = [string | undefined, string | undefined];

/** Every event that comes out of `chunks`, read by one splitter. */
function readAll(chunks: Uint8Array[]): Read[] {
  const splitter = new SseSplitter();
  const events = chunks.flatMap((chunk) => splitter.push(chunk));
  events.push(...splitter.rest());
  return events.map((event) => [eventName(event), eventData(event)]);
}

/** A stream written with LF line ends, and what must be read from it whatever the line ends and cuts. */
const STREAM = [
  ": a comment first\n\n",
  'event: message_start\ndata: {"type":"message_start","usage":{"input_tokens":7}}\n\n',
  'data: {"choices":[{"delta":\ndata: {"content":"h€llo 😀"}}]}\n\n',
  "event: ping\ndata:{}\n\n",
  'event: message_delta\n: inline comment\ndata: {"usage":\ndata:  {"output_tokens":3}}\n\n',
  "data: [DONE]\n\n",
].join("");

const EXPECTED: Read[] = [
  [undefined, undefined],
  ["message_start", '{"type":"message_start","usage":{"input_tokens":7}}'],
  [undefined, '{"choices":[{"delta":\n{"content":"h€llo 😀"}}]}'],
  ["ping", "{}"],
  ["message_delta", '{"usage":\n {"output_tokens":3}}'],
  [undefined, "[DONE]"],
];

const ENDINGS = { LF: "\n", CRLF: "\r\n", CR: "\r" } as const;

describe("one SSE reader that cannot lose events, however the network cuts the stream", () => {
  for (const [name, ending] of Object.entries(ENDINGS)) {
    const bytes = new TextEncoder().encode(STREAM.replaceAll("\n", ending));

    test(`${name} line ends: the stream in one chunk reads as its events (comments, names, multi-line data)`, () => {
      expect(readAll([bytes])).toEqual(EXPECTED);
      expect(EXPECTED.filter(([, data]) => data && data !== "[DONE]").every(([, d]) => JSON.parse(d!))).toBe(true);
    });

    test(`${name} line ends: cut at every byte offset, the same events come out`, () => {
      for (let at = 0; at <= bytes.length; at++) {
        expect([at, readAll([bytes.subarray(0, at), bytes.subarray(at)])]).toEqual([at, EXPECTED]);
      }
    });

    test(`${name} line ends: cut at every pair of byte offsets, the same events come out`, () => {
      for (let a = 0; a <= bytes.length; a++) {
        for (let b = a; b <= bytes.length; b++) {
          const read = readAll([bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)]);
          if (!Bun.deepEquals(read, EXPECTED)) expect([a, b, read]).toEqual([a, b, EXPECTED]);
        }
      }
    });

    test(`${name} line ends: one byte per chunk, the same events come out`, () => {
      expect(readAll([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(EXPECTED);
    });
  }

  test("a stream whose last event has no final blank line still hands that event over", () => {
    const bytes = new TextEncoder().encode("data: one\r\n\r\ndata: two\r\n");
    for (let at = 0; at <= bytes.length; at++) {
      expect(readAll([bytes.subarray(0, at), bytes.subarray(at)]).map(([, d]) => d)).toEqual(["one", "two"]);
    }
  });
});
