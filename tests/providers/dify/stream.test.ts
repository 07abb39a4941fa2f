import { expect, test } from "bun:test";
import { difyStreamMapper } from "../../../src/gateway/relay/providers/dify/stream";
import { foldChatStream } from "../../../src/gateway/relay/providers/folded-stream";
import { mapEventStream } from "../../../src/gateway/relay/providers/event-stream";
import { mapInPieces, sse } from "../support/mapped-stream";

const streamOf = (text: string) => new Response(text).body!;

test("Dify's answer events cut anywhere map to the same content, agent thoughts to reasoning, message_end to usage and [DONE]", async () => {
  const events = sse([
    { event: "agent_thought", thought: "look up" },
    { event: "message", message_id: "m1", answer: "Bon" },
    { event: "agent_message", message_id: "m1", answer: "jour" },
    { event: "message_end", metadata: { usage: { prompt_tokens: 8, completion_tokens: 2 } } },
  ]);
  for (const size of [2, 9, 4096]) {
    const { chunks, done } = await mapInPieces(difyStreamMapper("app"), events, size);
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Bonjour");
    expect(chunks.map((c) => c.choices[0]?.delta?.reasoning_content ?? "").join("")).toBe("look up");
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 2 });
  }
});

test("a Dify error event becomes an error event; folded into a whole reply it is a 502 with Dify's message", async () => {
  const events = sse([
    { event: "message", message_id: "m1", answer: "Bo" },
    { event: "error", status: 400, code: "provider_quota_exceeded", message: "quota of the app's model exceeded" },
  ]);
  const { chunks, done } = await mapInPieces(difyStreamMapper("app"), events, 7);
  expect(done).toBe(false);
  expect(chunks.at(-1)).toMatchObject({
    error: { message: "quota of the app's model exceeded", type: "provider_quota_exceeded" },
  });
  const folding = foldChatStream(mapEventStream(streamOf(events), difyStreamMapper("app")), "app");
  await expect(folding).rejects.toMatchObject({ status: 502, message: "quota of the app's model exceeded" });
});
