import { expect } from "bun:test";
import type OpenAI from "openai";
import {
  describeMatrix,
  LIMIT,
  SYSTEM_MARK,
  FORECAST_SCHEMA,
  TINY_PNG,
  TOOL_RESULT,
  WEATHER_SCHEMA,
  type Seen,
} from "./matrix";

type Usage = OpenAI.Responses.ResponseUsage | undefined;
const tokens = (u: Usage): Seen["usage"] => ({
  prompt: u?.input_tokens ?? 0,
  completion: u?.output_tokens ?? 0,
  cached: u?.input_tokens_details?.cached_tokens ?? 0,
  reasoning: u?.output_tokens_details?.reasoning_tokens ?? 0,
});

const tools = [{ type: "function" as const, name: "get_weather", parameters: WEATHER_SCHEMA, strict: false }];

describeMatrix({
  inbound: "responses",
  sdk: "openai responses",
  budgetOnly: false,
  stopSequences: false,
  async text(r, model) {
    const reply = await r.openai().responses.create({ model, input: "hi" });
    return { text: reply.output_text, usage: tokens(reply.usage) };
  },
  async stream(r, model) {
    const events = await r.openai().responses.create({ model, input: "hi", stream: true });
    let text = "";
    let usage: Usage;
    for await (const event of events) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") usage = event.response.usage;
    }
    return { text, usage: tokens(usage) };
  },
  async toolRoundTrip(r, model) {
    const tools = [{ type: "function" as const, name: "get_weather", parameters: WEATHER_SCHEMA, strict: false }];
    const question = { role: "user" as const, content: "Weather in Paris?" };
    const first = await r.openai().responses.create({ model, input: [question], tools });
    const call = first.output.find((item) => item.type === "function_call")!;
    const second = await r.openai().responses.create({
      model,
      tools,
      input: [
        question,
        ...(first.output as OpenAI.Responses.ResponseInputItem[]),
        { type: "function_call_output", call_id: call.call_id, output: TOOL_RESULT },
      ],
    });
    return { name: call.name, args: JSON.parse(call.arguments), text: second.output_text };
  },
  async streamedToolCall(r, model) {
    const events = await r.openai().responses.create({
      model,
      input: "Weather in Paris?",
      tools,
      tool_choice: { type: "function", name: "get_weather" },
      stream: true,
    });
    let args = "";
    let done: OpenAI.Responses.ResponseFunctionToolCall | undefined;
    for await (const event of events) {
      if (event.type === "response.function_call_arguments.delta") args += event.delta;
      if (event.type === "response.output_item.done" && event.item.type === "function_call") done = event.item;
    }
    expect(done?.arguments).toBe(args);
    return { name: done!.name, args: JSON.parse(args) };
  },
  async jsonSchema(r, model) {
    const reply = await r.openai().responses.create({
      model,
      input: "hi",
      text: { format: { type: "json_schema", name: "forecast", schema: FORECAST_SCHEMA } },
    });
    return reply.output_text;
  },
  async limited(r, model) {
    const reply = await r.openai().responses.create({
      model,
      instructions: SYSTEM_MARK,
      input: "hi",
      temperature: 0.25,
      top_p: 0.5,
      max_output_tokens: LIMIT,
    });
    return {
      text: reply.output_text,
      cut: reply.status === "incomplete" && reply.incomplete_details?.reason === "max_output_tokens",
    };
  },
  async thinking(r, model) {
    return (await r.openai().responses.create({ model, input: "hi", reasoning: { effort: "low" } })).output_text;
  },
  async image(r, model) {
    const reply = await r.openai().responses.create({
      model,
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: "What is this?" },
            { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG}`, detail: "auto" },
          ],
        },
      ],
    });
    return reply.output_text;
  },
});
