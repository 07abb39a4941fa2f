import { expect, test } from "bun:test";
import type OpenAI from "openai";
import { failure } from "../support";
import {
  describeMatrix,
  LIMIT,
  STOP_MARK,
  SYSTEM_MARK,
  FORECAST_SCHEMA,
  MODEL,
  TINY_PNG,
  TOOL_RESULT,
  WEATHER_SCHEMA,
  type Seen,
} from "./matrix";

type Usage = OpenAI.Completions.CompletionUsage | null | undefined;
const tokens = (u: Usage): Seen["usage"] => ({
  prompt: u?.prompt_tokens ?? 0,
  completion: u?.completion_tokens ?? 0,
  cached: u?.prompt_tokens_details?.cached_tokens ?? 0,
  reasoning: u?.completion_tokens_details?.reasoning_tokens ?? 0,
});
const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: WEATHER_SCHEMA } }];
const ask = (model: string, content: OpenAI.Chat.ChatCompletionUserMessageParam["content"] = "hi") => ({
  model,
  messages: [{ role: "user" as const, content }],
});

describeMatrix(
  {
    inbound: "openai",
    sdk: "openai chat.completions",
    budgetOnly: false,
    stopSequences: true,
    async text(r, model) {
      const reply = await r.openai().chat.completions.create(ask(model));
      return { text: reply.choices[0]!.message.content ?? "", usage: tokens(reply.usage) };
    },
    async stream(r, model) {
      const chunks = await r.openai().chat.completions.create({
        ...ask(model),
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: Usage;
      for await (const chunk of chunks) {
        text += chunk.choices[0]?.delta.content ?? "";
        usage = chunk.usage ?? usage;
      }
      return { text, usage: tokens(usage) };
    },
    async toolRoundTrip(r, model) {
      const question = { role: "user" as const, content: "Weather in Paris?" };
      const first = await r.openai().chat.completions.create({ model, messages: [question], tools });
      const asked = first.choices[0]!.message;
      const call = asked.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
      const second = await r.openai().chat.completions.create({
        model,
        tools,
        messages: [question, asked, { role: "tool", tool_call_id: call.id, content: TOOL_RESULT }],
      });
      return {
        name: call.function.name,
        args: JSON.parse(call.function.arguments),
        text: second.choices[0]!.message.content ?? "",
      };
    },
    async streamedToolCall(r, model) {
      const chunks = await r.openai().chat.completions.create({
        ...ask(model, "Weather in Paris?"),
        tools,
        tool_choice: { type: "function", function: { name: "get_weather" } },
        stream: true,
        stream_options: { include_usage: true },
      });
      let name = "";
      let args = "";
      for await (const chunk of chunks) {
        for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
          name += call.function?.name ?? "";
          args += call.function?.arguments ?? "";
        }
      }
      return { name, args: JSON.parse(args) };
    },
    async jsonSchema(r, model) {
      const reply = await r.openai().chat.completions.create({
        ...ask(model),
        response_format: { type: "json_schema", json_schema: { name: "forecast", schema: FORECAST_SCHEMA } },
      });
      return reply.choices[0]!.message.content ?? "";
    },
    async limited(r, model) {
      const reply = await r.openai().chat.completions.create({
        model,
        messages: [
          { role: "system", content: SYSTEM_MARK },
          { role: "user", content: "hi" },
        ],
        stop: [STOP_MARK],
        temperature: 0.25,
        top_p: 0.5,
        max_tokens: LIMIT,
      });
      const choice = reply.choices[0]!;
      return { text: choice.message.content ?? "", cut: choice.finish_reason === "length" };
    },
    async thinking(r, model) {
      const reply = await r.openai().chat.completions.create({ ...ask(model), reasoning_effort: "low" });
      return reply.choices[0]!.message.content ?? "";
    },
    async image(r, model) {
      const reply = await r.openai().chat.completions.create(
        ask(model, [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
        ]),
      );
      return reply.choices[0]!.message.content ?? "";
    },
  },
  (env) => {
    test("openai × anthropic × n > 1 is refused with a 400 naming `n`, in OpenAI's error shape, and costs nothing", async () => {
      const { r, upstream } = env();
      const before = await r.userRow();
      const sent = upstream.anthropic.requests.length;
      const error = await failure(r.openai().chat.completions.create({ ...ask(MODEL.anthropic), n: 2 }));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/\bn\b/);
      expect((error.error as { type?: string }).type).toBe("invalid_request_error");
      expect(upstream.anthropic.requests.length).toBe(sent);
      expect((await r.userRow()).quota).toBe(before.quota);
    });
  },
);
