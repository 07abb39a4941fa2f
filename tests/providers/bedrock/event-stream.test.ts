import { describe, expect, test } from "bun:test";
import { mapAwsEventStream, type AwsEvent } from "../../../src/gateway/relay/providers/bedrock/event-frames";
import { awsEvent, awsException } from "../../support/aws-event-frame";

const streamOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

/** The events the decoder hands its mapper, one line each, and the end marker. */
async function decoded(chunks: Uint8Array[]): Promise<string> {
  const seen = (e: AwsEvent) => `${e.messageType}/${e.type}/${e.payload}\n`;
  return new Response(mapAwsEventStream(streamOf(chunks), { event: seen, end: () => "end" })).text();
}

const concat = (frames: Uint8Array[]) => {
  const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) all.set(f, (at += f.length) - f.length);
  return all;
};

describe("AWS binary event-stream decoding", () => {
  const frames = [
    awsEvent("chunk", { bytes: Buffer.from('{"type":"message_stop"}').toString("base64") }),
    awsEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "héllo ✓" } }),
    awsException("throttlingException", "Too many requests"),
  ];
  const whole = concat(frames);
  const expected =
    `event/chunk/${JSON.stringify({ bytes: Buffer.from('{"type":"message_stop"}').toString("base64") })}\n` +
    `event/contentBlockDelta/${JSON.stringify({ contentBlockIndex: 0, delta: { text: "héllo ✓" } })}\n` +
    `exception/throttlingException/${JSON.stringify({ message: "Too many requests" })}\nend`;

  test("messages split at every byte offset decode to the same events (prelude, headers and payload across chunks)", async () => {
    expect(await decoded([whole])).toBe(expected);
    for (let cut = 1; cut < whole.length; cut++)
      expect(await decoded([whole.subarray(0, cut), whole.subarray(cut)])).toBe(expected);
  });

  test("one byte per chunk decodes too", async () => {
    expect(await decoded([...whole].map((b) => Uint8Array.of(b)))).toBe(expected);
  });

  test("a corrupted message (CRC mismatch) or a truncated stream fails the stream instead of yielding garbage", async () => {
    const corrupt = whole.slice();
    corrupt[20] = corrupt[20]! ^ 0xff;
    await expect(decoded([corrupt])).rejects.toThrow();
    await expect(decoded([whole.subarray(0, whole.length - 3)])).rejects.toThrow(/Truncated/);
  });
});
