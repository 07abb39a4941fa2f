import { dataEvents, expectShape, startLoopbackFake } from "./loopback-fake";

export const DIFY_USAGE = { prompt: 52, completion: 9 };
export const DIFY_ANSWER = ["Dify", " says", " hi"];

/** A loopback Dify app API: POST /v1/chat-messages with the app key, query/inputs/user, streaming answers only. */
export const startFakeDify = (key: string) =>
  startLoopbackFake(key, ({ path, body }) => {
    if (path !== "/v1/chat-messages")
      return Response.json({ code: "not_found", message: "not found" }, { status: 404 });
    expectShape(typeof body?.query === "string" && body.query, "query is required");
    expectShape(body.inputs && typeof body.inputs === "object", "inputs is required");
    expectShape(typeof body.user === "string" && body.user, "user is required");
    // Agent apps answer streaming only, as Dify's do.
    expectShape(body.response_mode === "streaming", "Agent Chat App does not support blocking mode");
    const ids = { conversation_id: "conv-1", message_id: "msg-1", task_id: "t1" };
    return dataEvents([
      { event: "workflow_started", ...ids, data: {} },
      ...DIFY_ANSWER.map((answer) => ({ event: "agent_message", ...ids, answer })),
      { event: "ping" },
      {
        event: "message_end",
        ...ids,
        metadata: {
          usage: {
            prompt_tokens: DIFY_USAGE.prompt,
            completion_tokens: DIFY_USAGE.completion,
            total_tokens: DIFY_USAGE.prompt + DIFY_USAGE.completion,
            total_price: "0.0001",
            currency: "USD",
          },
        },
      },
    ]);
  });
