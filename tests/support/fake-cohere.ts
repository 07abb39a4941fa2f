import { expectShape, namedEvents, startLoopbackFake, type SeenRequest } from "./loopback-fake";

/** What the fake Cohere bills: chat input/output tokens and embed input tokens per text. */
export const COHERE_USAGE = { input: 31, output: 7, tokensSeen: { input: 40, output: 7 }, embedPerText: 3 };
export const COHERE_ANSWER = ["Hello", " from", " Cohere"];
/** The vector the fake gives the i-th text. */
export const cohereVector = (i: number) => [i + 0.5, -0.25, 1];

const ROLES = new Set(["system", "user", "assistant", "tool"]);
const usage = {
  billed_units: { input_tokens: COHERE_USAGE.input, output_tokens: COHERE_USAGE.output },
  tokens: { input_tokens: COHERE_USAGE.tokensSeen.input, output_tokens: COHERE_USAGE.tokensSeen.output },
};

function checkChat(body: any) {
  expectShape(typeof body?.model === "string" && body.model, "model is required");
  expectShape(Array.isArray(body.messages) && body.messages.length, "messages is required");
  for (const m of body.messages) {
    expectShape(ROLES.has(m.role), `invalid role ${m.role}`);
    if (m.role === "tool") expectShape(typeof m.tool_call_id === "string", "tool messages need tool_call_id");
  }
  expectShape(typeof body.stream === "boolean", "stream must be a boolean");
  for (const key of ["top_p", "stop", "n", "max_completion_tokens"])
    expectShape(!(key in body), `unknown field: parameter ${key} is not a valid field`);
}

/** A tool call is answered when tools are offered and the conversation does not end with a tool's answer. */
const callsTool = (body: any) =>
  Array.isArray(body.tools) && body.tools.length && body.messages.at(-1)?.role !== "tool";
const TOOL_CALL = {
  id: "get_weather_1",
  type: "function",
  function: { name: "get_weather", arguments: '{"city":"Paris"}' },
};

function chat(body: any): Response {
  checkChat(body);
  const tool = callsTool(body);
  if (!body.stream)
    return Response.json({
      id: "c0de",
      finish_reason: tool ? "TOOL_CALL" : "COMPLETE",
      message: {
        role: "assistant",
        ...(tool
          ? { tool_plan: "I will look the weather up.", tool_calls: [TOOL_CALL] }
          : { content: [{ type: "text", text: COHERE_ANSWER.join("") }] }),
      },
      usage,
    });
  const events: [string, object][] = [
    ["message-start", { type: "message-start", id: "c0de", delta: { message: { role: "assistant" } } }],
  ];
  if (tool) {
    events.push([
      "tool-plan-delta",
      { type: "tool-plan-delta", delta: { message: { tool_plan: "I will look the weather up." } } },
    ]);
    const start = { ...TOOL_CALL, function: { name: "get_weather", arguments: "" } };
    events.push(["tool-call-start", { type: "tool-call-start", index: 0, delta: { message: { tool_calls: start } } }]);
    for (const piece of ['{"city":', '"Paris"}'])
      events.push([
        "tool-call-delta",
        { type: "tool-call-delta", index: 0, delta: { message: { tool_calls: { function: { arguments: piece } } } } },
      ]);
    events.push(["tool-call-end", { type: "tool-call-end", index: 0 }]);
  } else {
    events.push([
      "content-start",
      { type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } },
    ]);
    for (const text of COHERE_ANSWER)
      events.push(["content-delta", { type: "content-delta", index: 0, delta: { message: { content: { text } } } }]);
    events.push(["content-end", { type: "content-end", index: 0 }]);
  }
  events.push([
    "message-end",
    { type: "message-end", delta: { finish_reason: tool ? "TOOL_CALL" : "COMPLETE", usage } },
  ]);
  return namedEvents(events);
}

function embed(body: any): Response {
  expectShape(
    Array.isArray(body?.texts) && body.texts.every((t: unknown) => typeof t === "string"),
    "texts must be strings",
  );
  expectShape(
    ["search_document", "search_query", "classification", "clustering"].includes(body.input_type),
    "input_type is required for embed-v3 models",
  );
  expectShape(Array.isArray(body.embedding_types) && body.embedding_types.includes("float"), "embedding_types");
  const vectors = body.texts.map((_: string, i: number) => cohereVector(i));
  const embeddings: Record<string, unknown> = { float: vectors };
  if (body.embedding_types.includes("base64")) embeddings.base64 = vectors.map(() => "Y29oZXJl");
  return Response.json({
    id: "e1",
    embeddings,
    texts: body.texts,
    meta: { billed_units: { input_tokens: COHERE_USAGE.embedPerText * body.texts.length } },
  });
}

function rerank(body: any): Response {
  expectShape(typeof body?.query === "string", "query is required");
  expectShape(
    Array.isArray(body.documents) && body.documents.every((d: unknown) => typeof d === "string"),
    "documents must be strings",
  );
  // The document mentioning the query's first word ranks first.
  const word = body.query.split(" ")[0].toLowerCase();
  const results = body.documents
    .map((d: string, index: number) => ({
      index,
      relevance_score: d.toLowerCase().includes(word) ? 0.9 : 0.1 / (index + 1),
    }))
    .sort((a: any, b: any) => b.relevance_score - a.relevance_score)
    .slice(0, body.top_n ?? body.documents.length);
  return Response.json({ id: "r1", results, meta: { billed_units: { search_units: 1 } } });
}

const ROUTES: Record<string, (body: any) => Response> = { "/v2/chat": chat, "/v2/embed": embed, "/v2/rerank": rerank };

export const COHERE_MODELS = ["command-a", "command-r", "embed-v4.0", "rerank-v3.5"];

/** GET /v1/models, two models a page, as Cohere pages it. */
function models(url: URL): Response {
  const at = Number(url.searchParams.get("page_token") ?? "0");
  const next = at + 2 < COHERE_MODELS.length ? String(at + 2) : "";
  return Response.json({ models: COHERE_MODELS.slice(at, at + 2).map((name) => ({ name })), next_page_token: next });
}

/** A loopback Cohere API v2 that checks the bearer key and each API's request shape, as Cohere does. */
export const startFakeCohere = (key: string) =>
  startLoopbackFake(key, (seen: SeenRequest) => {
    if (seen.path === "/v1/models") return models(new URL(seen.url));
    const route = ROUTES[seen.path];
    return route ? route(seen.body) : Response.json({ message: `no route ${seen.path}` }, { status: 404 });
  });
