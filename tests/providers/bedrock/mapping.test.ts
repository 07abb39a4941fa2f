import { describe, expect, test } from "bun:test";
import { converseBody } from "../../../src/gateway/relay/providers/bedrock/converse-request";
import { mapConverse } from "../../../src/gateway/relay/providers/bedrock/converse-reply";
import { awsAccessOf } from "../../../src/gateway/relay/providers/bedrock/credentials";
import { bedrockModelId, isClaude } from "../../../src/gateway/relay/providers/bedrock/model-ids";
import { bedrockProvider } from "../../../src/gateway/relay/providers/bedrock/provider";
import { ChannelConfigError } from "../../../src/shared/channel-config-error";
import { awsEvent, awsException } from "../../support/aws-event-frame";
import { accumulatedToolCalls } from "../support/mapped-stream";

const channel = (key: string, other = "") => ({ type: 33, key, base_url: "", other });
const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather",
    parameters: { type: "object", properties: { city: { type: "string" } } },
  },
};

/** The OpenAI chunks the provider makes of AWS event frames (one frame per chunk), and whether [DONE] came. */
async function streamed(model: string, frames: Uint8Array[]) {
  const upstream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const f of frames) c.enqueue(f);
      c.close();
    },
  });
  const text = await new Response(bedrockProvider.mapStream!(upstream, model)).text();
  const datas = text
    .split("\n\n")
    .filter(Boolean)
    .map((e) => e.replace(/^data: /, ""));
  return { chunks: datas.filter((d) => d !== "[DONE]").map((d) => JSON.parse(d)), done: datas.at(-1) === "[DONE]" };
}

describe("Bedrock model ids", () => {
  test("Anthropic API names become Bedrock ids; Bedrock ids, inference profiles and ARNs pass as they are", () => {
    expect(bedrockModelId("claude-3-haiku-20240307")).toBe("anthropic.claude-3-haiku-20240307-v1:0");
    expect(bedrockModelId("claude-3-5-sonnet-20241022")).toBe("anthropic.claude-3-5-sonnet-20241022-v2:0");
    expect(bedrockModelId("us.anthropic.claude-sonnet-4-20250514-v1:0")).toBe(
      "us.anthropic.claude-sonnet-4-20250514-v1:0",
    );
    expect(bedrockModelId("meta.llama3-8b-instruct-v1:0")).toBe("meta.llama3-8b-instruct-v1:0");
    for (const id of [
      "anthropic.claude-v2",
      "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
      "global.anthropic.claude-sonnet-4-5-20250929-v1:0",
      "apac.anthropic.claude-3-haiku-20240307-v1:0",
    ])
      expect(isClaude(id)).toBe(true);
    for (const id of [
      "meta.llama3-8b-instruct-v1:0",
      "us.amazon.nova-pro-v1:0",
      "arn:aws:bedrock:us-east-1:123:application-inference-profile/x",
    ])
      expect(isClaude(id)).toBe(false);
  });
});

describe("Bedrock credentials from the channel", () => {
  test("AK|SK and AK|SK|SESSION_TOKEN with the region from other; AK|SK|REGION keys too", () => {
    expect(awsAccessOf(channel("AK|SK", "eu-west-1"))).toEqual({
      credentials: { accessKeyId: "AK", secretAccessKey: "SK" },
      region: "eu-west-1",
    });
    expect(awsAccessOf(channel("AK|SK|tok", "us-east-1")).credentials.sessionToken).toBe("tok");
    expect(awsAccessOf(channel("AK|SK|ap-northeast-1"))).toEqual({
      credentials: { accessKeyId: "AK", secretAccessKey: "SK" },
      region: "ap-northeast-1",
    });
  });

  test("a malformed key, no region or a region that is not AWS's is a setup error that names the setting, never the key", () => {
    for (const [key, other, told] of [
      ["only-one-part", "us-east-1", "must be ACCESS_KEY_ID|SECRET_ACCESS_KEY"],
      ["AK|SK|tok|extra", "us-east-1", "must be ACCESS_KEY_ID|SECRET_ACCESS_KEY"],
      ["AK|SECRETVALUE", "", "has no region"],
      ["AK|SECRETVALUE", "moon-base", 'region "moon-base" is not an AWS region'],
    ] as const) {
      const attempt = () => awsAccessOf(channel(key, other));
      expect(attempt).toThrow(ChannelConfigError);
      expect(attempt).toThrow(told);
      try {
        attempt();
      } catch (error) {
        expect(String(error)).not.toContain("SECRETVALUE");
      }
    }
  });
});

describe("Converse request and reply mapping", () => {
  test("messages, images, tool calls and answers, tools and tool_choice become Converse's blocks", () => {
    const body = converseBody({
      messages: [
        { role: "system", content: "sys" },
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "t1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "sunny" },
      ],
      tools: [weather],
      tool_choice: "required",
      top_p: 0.5,
    });
    expect(body).toEqual({
      messages: [
        { role: "user", content: [{ text: "look" }, { image: { format: "png", source: { bytes: "AAAA" } } }] },
        {
          role: "assistant",
          content: [{ toolUse: { toolUseId: "t1", name: "get_weather", input: { city: "Paris" } } }],
        },
        { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: "sunny" }] } }] },
      ],
      system: [{ text: "sys" }],
      inferenceConfig: { topP: 0.5 },
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: "get_weather",
              description: "Weather",
              inputSchema: { json: weather.function.parameters },
            },
          },
        ],
        toolChoice: { any: {} },
      },
    });
    expect(() =>
      converseBody({
        messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] }],
      }),
    ).toThrow("image URLs are not supported");
  });

  test("a Converse reply: text, reasoning, toolUse as tool_calls, usage with cache reads and writes inside prompt_tokens", () => {
    const reply = mapConverse(
      {
        output: {
          message: {
            role: "assistant",
            content: [
              { reasoningContent: { reasoningText: { text: "hmm" } } },
              { text: "ok" },
              { toolUse: { toolUseId: "tu1", name: "get_weather", input: { city: "Rome" } } },
            ],
          },
        },
        stopReason: "tool_use",
        usage: {
          inputTokens: 7,
          outputTokens: 9,
          cacheReadInputTokens: 100,
          cacheWriteInputTokens: 20,
          totalTokens: 136,
        },
      },
      "m",
    );
    expect(reply.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: {
        content: "ok",
        reasoning_content: "hmm",
        tool_calls: [{ id: "tu1", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } }],
      },
    });
    expect(reply.usage).toEqual({
      prompt_tokens: 127,
      completion_tokens: 9,
      total_tokens: 136,
      prompt_tokens_details: { cached_tokens: 100, cached_creation_tokens: 20 },
    });
  });
});

describe("Bedrock stream mapping", () => {
  test("converse-stream: text, a streamed tool call's input deltas, finish and usage, then [DONE]", async () => {
    const { chunks, done } = await streamed("meta.llama3-8b-instruct-v1:0", [
      awsEvent("messageStart", { role: "assistant" }),
      awsEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Let me check." } }),
      awsEvent("contentBlockStop", { contentBlockIndex: 0 }),
      awsEvent("contentBlockStart", {
        contentBlockIndex: 1,
        start: { toolUse: { toolUseId: "tu9", name: "get_weather" } },
      }),
      awsEvent("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"ci' } } }),
      awsEvent("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: 'ty":"Oslo"}' } } }),
      awsEvent("messageStop", { stopReason: "tool_use" }),
      awsEvent("metadata", {
        usage: { inputTokens: 3, outputTokens: 4, cacheReadInputTokens: 2, cacheWriteInputTokens: 1 },
      }),
    ]);
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Let me check.");
    expect(accumulatedToolCalls(chunks)).toEqual([{ id: "tu9", name: "get_weather", arguments: '{"city":"Oslo"}' }]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1).usage).toMatchObject({
      prompt_tokens: 6,
      completion_tokens: 4,
      prompt_tokens_details: { cached_tokens: 2, cached_creation_tokens: 1 },
    });
  });

  test("an exception event mid-stream becomes an error event and no [DONE] (the relay ends the call as broken)", async () => {
    for (const model of ["claude-3-haiku-20240307", "mistral.mistral-large-2402-v1:0"]) {
      const { chunks, done } = await streamed(model, [
        awsException("throttlingException", "Too many tokens, please wait"),
      ]);
      expect(done).toBe(false);
      expect(chunks).toEqual([
        { error: { message: "Too many tokens, please wait", type: "throttlingException", param: null, code: null } },
      ]);
    }
  });

  test("invoke-with-response-stream: base64 Anthropic events map as the Anthropic family maps them, a stream without message_stop claims no usage", async () => {
    const chunk = (e: object) => awsEvent("chunk", { bytes: Buffer.from(JSON.stringify(e)).toString("base64") });
    const start = { type: "message_start", message: { id: "m1", usage: { input_tokens: 5, output_tokens: 1 } } };
    const delta = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } };
    const broken = await streamed("claude-3-haiku-20240307", [chunk(start), chunk(delta)]);
    expect(broken.done).toBe(false);
    expect(broken.chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Hi");
    expect(broken.chunks.some((c) => c.usage)).toBe(false);
  });
});
