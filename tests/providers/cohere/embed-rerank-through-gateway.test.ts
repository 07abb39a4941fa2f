import { describe, expect, test } from "bun:test";
import { estimatePromptTokens } from "../../../src/service/relay/endpoints";
import { DIALECTS } from "../../support/databases";
import { COHERE_USAGE, cohereVector, startFakeCohere } from "../../support/fake-cohere";
import { accumulatedToolCalls } from "../support/mapped-stream";
import { EMBED_MODEL, RATIO, RERANK_MODEL, embedRerankEnv, rerank } from "../support/embed-rerank-env";

const KEY = "cohere-embed-key-4242";
const near = (a: ArrayLike<number>, b: number[]) =>
  expect(Array.from(a).map((x) => Math.round(x * 1e6) / 1e6)).toEqual(b);

describe.each(DIALECTS)("Cohere embeddings, rerank and tool calls through the gateway on %s", (dialect) => {
  const env = embedRerankEnv(dialect, 34, startFakeCohere, KEY);

  test("the openai SDK's embeddings (base64 by default, and floats) come back as its vectors, billed from Cohere's billed tokens", async () => {
    const { r, upstream } = env;
    const before = await r.userRow();
    const reply = await r.openai().embeddings.create({ model: EMBED_MODEL, input: ["alpha", "beta"] });
    expect(upstream.requests.at(-1)).toMatchObject({
      path: "/v2/embed",
      body: { model: EMBED_MODEL, texts: ["alpha", "beta"], input_type: "search_document" },
    });
    near(reply.data[0]!.embedding, cohereVector(0));
    near(reply.data[1]!.embedding, cohereVector(1));
    expect(reply.usage).toEqual({
      prompt_tokens: 2 * COHERE_USAGE.embedPerText,
      total_tokens: 2 * COHERE_USAGE.embedPerText,
    });
    expect(before.quota - (await r.userRow()).quota).toBe(RATIO * 2 * COHERE_USAGE.embedPerText);
    const floats = await r.openai().embeddings.create({ model: EMBED_MODEL, input: "gamma", encoding_format: "float" });
    expect(floats.data[0]!.embedding).toEqual(cohereVector(0));
  });

  test("rerank answers the relay's shape ranked by Cohere; billed by counting the query and documents (Cohere bills search units)", async () => {
    const { r, upstream } = env;
    const ask = { query: "paris weather", documents: ["Rome is warm", "Paris is rainy", { text: "Oslo" }], top_n: 2 };
    const before = await r.userRow();
    const { status, body } = await rerank(r, ask);
    expect(status).toBe(200);
    expect(upstream.requests.at(-1)!.body).toEqual({
      model: RERANK_MODEL,
      query: "paris weather",
      documents: ["Rome is warm", "Paris is rainy", "Oslo"],
      top_n: 2,
    });
    expect(body.results.map((x: any) => x.index)).toEqual([1, 0]);
    const counted = estimatePromptTokens("rerank", RERANK_MODEL, { model: RERANK_MODEL, ...ask });
    expect(before.quota - (await r.userRow()).quota).toBe(RATIO * counted);
    expect((await r.consumeLogs()).at(-1)).toMatchObject({ prompt_tokens: counted, completion_tokens: 0 });
  });

  test("a tool call reaches the openai SDK whole (id, name, arguments), streamed and not, finishing with tool_calls", async () => {
    const ask = {
      model: "family-chat",
      messages: [{ role: "user" as const, content: "Weather in Paris?" }],
      tools: [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } }],
    };
    const whole = await env.r.openai().chat.completions.create(ask);
    expect(whole.choices[0]!.finish_reason).toBe("tool_calls");
    expect(whole.choices[0]!.message.tool_calls).toEqual([
      { id: "get_weather_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    const chunks: any[] = [];
    for await (const chunk of await env.r.openai().chat.completions.create({ ...ask, stream: true }))
      chunks.push(chunk);
    expect(accumulatedToolCalls(chunks)).toEqual([
      { id: "get_weather_1", name: "get_weather", arguments: '{"city":"Paris"}' },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
    expect(env.upstream.requests.at(-1)!.body.tools).toEqual([
      { type: "function", function: { name: "get_weather", parameters: { type: "object" } } },
    ]);
  });
});
