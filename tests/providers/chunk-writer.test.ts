/**
 * The pivot chunks a translating provider writes: each event is the JSON of its chunk object (the same object a
 * whole stream hands the inbound dialect), with the id and model current when it was written.
 */
import { expect, test } from "bun:test";
import { ChunkWriter } from "../../src/gateway/relay/providers/openai-shape";
import type { PivotEvent } from "../../src/gateway/relay/pivot-events";

const dataOf = (event: string) => JSON.parse(event.slice("data: ".length));

test("each event is its recorded chunk's JSON, following id and model changes between chunks", () => {
  const writer = new ChunkWriter("chatcmpl-1", "m-1");
  const recorded: PivotEvent[] = [];
  writer.record = recorded;
  const events = [writer.delta("Hel")];
  writer.model = "m-2";
  events.push(writer.delta("lo", "", "stop"));
  writer.id = "chatcmpl-2";
  events.push(writer.toolCall(0, "{}", { id: "call_1", name: "now" }));
  events.push(writer.usage({ prompt: 3, completion: 2, cached: 0 }));
  events.push(writer.done());

  expect(events.slice(0, 4).map((event, at) => event === `data: ${JSON.stringify(recorded[at])}\n\n`)).toEqual([
    true,
    true,
    true,
    true,
  ]);
  expect(events.slice(0, 3).map((event) => [dataOf(event).id, dataOf(event).model])).toEqual([
    ["chatcmpl-1", "m-1"],
    ["chatcmpl-1", "m-2"],
    ["chatcmpl-2", "m-2"],
  ]);
  expect(dataOf(events[1]!).choices[0]).toEqual({
    index: 0,
    delta: { content: "lo" },
    logprobs: null,
    finish_reason: "stop",
  });
  expect(recorded[4]).toBe("[DONE]");
  expect(events[4]).toBe("data: [DONE]\n\n");
});

test("a content delta written from its text is the JSON of the chunk a recording writer makes, whatever the text", () => {
  const tricky = 'say "hi"\\\n</script>\u2028 é 🌍\u0000';
  const write = (writer: ChunkWriter) => {
    const events = [writer.delta("Hel"), writer.delta(tricky), writer.delta("")];
    writer.model = "m-2";
    events.push(writer.delta("lo"), writer.delta("", "thinking"), writer.delta("end", "", "stop"));
    return events;
  };
  const recording = new ChunkWriter("chatcmpl-1", "m-1");
  const recorded: PivotEvent[] = [];
  recording.record = recorded;
  const plain = write(new ChunkWriter("chatcmpl-1", "m-1"));
  expect(plain).toEqual(write(recording));
  expect(plain.filter(Boolean)).toEqual(recorded.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`));
  expect(dataOf(plain[1]!).choices).toEqual([
    { index: 0, delta: { content: tricky }, logprobs: null, finish_reason: null },
  ]);
});
