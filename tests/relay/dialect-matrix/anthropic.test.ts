import Anthropic from "@anthropic-ai/sdk";
import type { RelayEnv } from "../support";
import {
  describeMatrix,
  LIMIT,
  STOP_MARK,
  SYSTEM_MARK,
  FORECAST_SCHEMA,
  TINY_PNG,
  TOOL_RESULT,
  WEATHER,
  WEATHER_SCHEMA,
  type Seen,
} from "./matrix";

const client = (r: RelayEnv) => new Anthropic({ apiKey: r.key, baseURL: r.s.url, maxRetries: 0 });
/** Anthropic's input_tokens leave out cache reads and writes; it has no count of thinking tokens. */
const tokens = (u: Anthropic.Usage): Seen["usage"] => ({
  prompt: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0),
  completion: u.output_tokens,
  cached: u.cache_read_input_tokens ?? 0,
  written: u.cache_creation_input_tokens ?? 0,
});
const textOf = (m: Anthropic.Message) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");
const ask = (model: string, content: Anthropic.MessageParam["content"] = "hi") => ({
  model,
  max_tokens: 100,
  messages: [{ role: "user" as const, content }],
});

const tools = [{ name: WEATHER.name, input_schema: WEATHER_SCHEMA as Anthropic.Tool.InputSchema }];

describeMatrix({
  inbound: "anthropic",
  sdk: "@anthropic-ai/sdk",
  budgetOnly: true,
  stopSequences: true,
  async text(r, model) {
    const reply = await client(r).messages.create(ask(model));
    return { text: textOf(reply), usage: tokens(reply.usage) };
  },
  async stream(r, model) {
    const reply = await client(r).messages.stream(ask(model)).finalMessage();
    return { text: textOf(reply), usage: tokens(reply.usage) };
  },
  async toolRoundTrip(r, model) {
    const question = { role: "user" as const, content: "Weather in Paris?" };
    const first = await client(r).messages.create({ ...ask(model), messages: [question], tools });
    const call = first.content.find((b) => b.type === "tool_use")!;
    const second = await client(r).messages.create({
      ...ask(model),
      tools,
      messages: [
        question,
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: TOOL_RESULT }] },
      ],
    });
    return { name: call.name, args: call.input, text: textOf(second) };
  },
  async streamedToolCall(r, model) {
    const reply = await client(r)
      .messages.stream({ ...ask(model, "Weather in Paris?"), tools, tool_choice: { type: "tool", name: WEATHER.name } })
      .finalMessage();
    const call = reply.content.find((b) => b.type === "tool_use")!;
    return { name: call.name, args: call.input };
  },
  async jsonSchema(r, model) {
    const reply = await client(r).messages.create({
      ...ask(model),
      output_config: { format: { type: "json_schema", schema: FORECAST_SCHEMA } },
    });
    return textOf(reply);
  },
  async limited(r, model) {
    const reply = await client(r).messages.create({
      ...ask(model),
      system: SYSTEM_MARK,
      stop_sequences: [STOP_MARK],
      max_tokens: LIMIT,
      // Sampling parameters this SDK's types no longer list; Claude Code and older SDKs still send them.
      ...({ temperature: 0.25, top_p: 0.5 } as object),
    });
    return { text: textOf(reply), cut: reply.stop_reason === "max_tokens" };
  },
  async thinking(r, model) {
    const reply = await client(r).messages.create({
      ...ask(model),
      max_tokens: 2000,
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    return textOf(reply);
  },
  async image(r, model) {
    const reply = await client(r).messages.create(
      ask(model, [
        { type: "text", text: "What is this?" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: TINY_PNG } },
      ]),
    );
    return textOf(reply);
  },
});
