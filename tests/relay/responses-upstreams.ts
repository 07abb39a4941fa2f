import {
  DEFAULT_CONTENT,
  openaiDialect,
  SSE_DONE,
  sseData,
  startFakeServer,
  type FakeCall,
  type FakeDialect,
} from "../support/fake-upstream";

/** What the storing fake answers input_tokens with (not the gateway's estimate). */
export const UPSTREAM_INPUT_TOKENS = 77;
export const TOOL_CALL_USAGE = { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 };

/** A model the storing fake answers 404 model_not_found for, as OpenAI does. */
export const MISSING_MODEL = "missing-model";

const STORED = /^\/v1\/responses\/([^/]+)(\/cancel|\/input_items)?$/;

/** The OpenAI fake, also serving the Responses API's calls on stored responses (as OpenAI does). */
const storingDialect: FakeDialect = {
  ...openaiDialect,
  handle(call) {
    const { pathname } = call.url;
    if (pathname === "/v1/responses/input_tokens") {
      return { json: { object: "response.input_tokens", input_tokens: UPSTREAM_INPUT_TOKENS } };
    }
    if (call.body?.model === MISSING_MODEL) {
      const error = { message: "The model does not exist", type: "invalid_request_error", code: "model_not_found" };
      return { json: { error }, status: 404 };
    }
    const stored = STORED.exec(pathname);
    if (!stored) return openaiDialect.handle(call);
    const id = stored[1]!;
    const method = call.request.method;
    if (method === "DELETE") return { json: { id, object: "response", deleted: true } };
    if (stored[2] === "/input_items") return { json: { object: "list", data: [], first_id: null, has_more: false } };
    return {
      json: { id, object: "response", status: stored[2] === "/cancel" ? "cancelled" : "completed", output: [] },
    };
  },
};

/** A chat reply calling the first tool offered (its name as the gateway flattened it), or text once a tool answered. */
function chatWithTools(call: FakeCall) {
  const { body, seq } = call;
  const tools: any[] = body.tools ?? [];
  if (tools.length === 0 || body.messages.at(-1)?.role === "tool") return openaiDialect.handle(call);
  const name = tools[0].function.name;
  const head = { id: `chatcmpl-echo-${seq}`, created: 1, model: body.model };
  const args = JSON.stringify({ input: "ls" });
  if (!body.stream) {
    const tool_calls = [{ id: "call_echo", type: "function", function: { name, arguments: args } }];
    return {
      json: {
        ...head,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls }, finish_reason: "tool_calls" }],
        usage: TOOL_CALL_USAGE,
      },
    };
  }
  const chunk = (delta: object, finish: string | null = null) =>
    sseData({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  return {
    frames: [
      chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_echo", function: { name, arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, 5) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }),
      chunk({}, "tool_calls"),
      sseData({ ...head, object: "chat.completion.chunk", choices: [], usage: TOOL_CALL_USAGE }),
      SSE_DONE,
    ],
  };
}

/** An OpenAI-compatible server with chat completions only (404 on /v1/responses), calling the first tool offered. */
const chatOnlyDialect: FakeDialect = {
  ...openaiDialect,
  handle(call) {
    if (call.url.pathname.startsWith("/v1/responses")) return undefined;
    if (call.url.pathname === "/v1/chat/completions" && typeof call.body === "object") return chatWithTools(call);
    return openaiDialect.handle(call);
  },
};

export const startStoringUpstream = () => startFakeServer(storingDialect);
export const startChatOnlyUpstream = () => startFakeServer(chatOnlyDialect);
export { DEFAULT_CONTENT };
