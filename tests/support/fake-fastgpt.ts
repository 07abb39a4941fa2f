import { dataEvents, expectShape, startLoopbackFake } from "./loopback-fake";

export const FASTGPT_USAGE = { prompt: 61, completion: 4 };
export const FASTGPT_ANSWER = ["From", " the", " base"];

/** A loopback FastGPT OpenAPI: OpenAI's chat completions under its base, the key (optionally `<key>-<appId>`) checked. */
export const startFakeFastGpt = (key: string) =>
  startLoopbackFake(key, ({ path, body }) => {
    if (path !== "/v1/chat/completions") return Response.json({ message: "not found" }, { status: 404 });
    expectShape(Array.isArray(body?.messages) && body.messages.length, "messages is required");
    const usage = {
      prompt_tokens: FASTGPT_USAGE.prompt,
      completion_tokens: FASTGPT_USAGE.completion,
      total_tokens: FASTGPT_USAGE.prompt + FASTGPT_USAGE.completion,
    };
    const base = { id: "fg-1", created: 1, model: body.model };
    if (!body.stream)
      return Response.json({
        ...base,
        object: "chat.completion",
        choices: [
          { index: 0, message: { role: "assistant", content: FASTGPT_ANSWER.join("") }, finish_reason: "stop" },
        ],
        usage,
      });
    const chunk = (delta: object, finish: string | null = null) => ({
      ...base,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    return dataEvents(
      [
        ...FASTGPT_ANSWER.map((content) => chunk({ content })),
        chunk({}, "stop"),
        ...(body.stream_options?.include_usage
          ? [{ ...base, object: "chat.completion.chunk", choices: [], usage }]
          : []),
      ],
      "data: [DONE]\n\n",
    );
  });
