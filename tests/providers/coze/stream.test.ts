import { expect, test } from "bun:test";
import { cozeStreamMapper } from "../../../src/gateway/relay/providers/coze/stream";
import { mapInPieces } from "../support/mapped-stream";

const named = (events: [string, object][]) =>
  events.map(([name, data]) => `event:${name}\ndata:${JSON.stringify(data)}\n\n`).join("");

test("Coze's named events: answer deltas only (not the completed repeat, not follow-ups), reasoning, usage from chat.completed", async () => {
  const events = named([
    ["conversation.chat.created", { id: "c1" }],
    ["conversation.message.delta", { type: "answer", content: "", reasoning_content: "think" }],
    ["conversation.message.delta", { type: "answer", content: "Ja" }],
    ["conversation.message.delta", { type: "answer", content: "wohl" }],
    ["conversation.message.completed", { type: "answer", content: "Jawohl" }],
    ["conversation.message.completed", { type: "follow_up", content: "More?" }],
    ["conversation.chat.completed", { id: "c1", usage: { token_count: 12, input_count: 9, output_count: 3 } }],
    ["done", {}],
  ]);
  for (const size of [3, 50, 4096]) {
    const { chunks, done } = await mapInPieces(cozeStreamMapper("bot"), events, size);
    expect(done).toBe(true);
    expect(chunks[0].id).toBe("chatcmpl-c1");
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Jawohl");
    expect(chunks.map((c) => c.choices[0]?.delta?.reasoning_content ?? "").join("")).toBe("think");
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 });
  }
});

test("a failed Coze chat is an error event with Coze's message, and no [DONE]", async () => {
  const events = named([["conversation.chat.failed", { last_error: { code: 4011, msg: "insufficient credits" } }]]);
  const { chunks, done } = await mapInPieces(cozeStreamMapper("bot"), events, 5);
  expect(done).toBe(false);
  expect(chunks).toEqual([{ error: { message: "insufficient credits", type: "4011", param: null, code: null } }]);
});
