import {
  openaiDialect,
  SSE_DONE,
  sseData,
  startFakeServer,
  type FakeCall,
  type FakeDialect,
} from "../support/fake-upstream";

/** The tool calls the fake answers with for a model starting "tools-": two parallel calls. */
export const FAKE_TOOL_CALLS = [
  { id: "call_weather", name: "get_weather", arguments: { city: "Paris" } },
  { id: "call_time", name: "get_time", arguments: { zone: "CET" } },
];
export const TOOL_USAGE = { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 };

function toolCalls({ body, seq }: FakeCall) {
  const head = { id: `chatcmpl-tools-${seq}`, created: 1, model: body.model };
  if (!body.stream) {
    const tool_calls = FAKE_TOOL_CALLS.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    const message = { role: "assistant", content: null, tool_calls };
    return {
      json: {
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: "tool_calls" }],
        usage: TOOL_USAGE,
      },
    };
  }
  const chunk = (delta: object, finish: string | null = null) =>
    sseData({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = FAKE_TOOL_CALLS.flatMap((c, index) => {
    const args = JSON.stringify(c.arguments);
    const half = Math.floor(args.length / 2);
    return [
      chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }),
    ];
  });
  return {
    frames: [
      chunk({ role: "assistant", content: null }),
      ...frames,
      chunk({}, "tool_calls"),
      sseData({ ...head, object: "chat.completion.chunk", choices: [], usage: TOOL_USAGE }),
      SSE_DONE,
    ],
  };
}

/** The OpenAI fake, answering tool calls (streamed as argument deltas) for models starting "tools-". */
const toolDialect: FakeDialect = {
  ...openaiDialect,
  handle: (call) => (String(call.body?.model).startsWith("tools-") ? toolCalls(call) : openaiDialect.handle(call)),
};

export const startToolUpstream = () => startFakeServer(toolDialect);
