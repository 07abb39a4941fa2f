import { describe, expect, test } from "bun:test";
import { failure } from "../../relay/support";
import { DIALECTS } from "../../support/databases";
import { JINA_TOKENS_PER_TEXT, startFakeJina } from "../../support/fake-jina";
import { EMBED_MODEL, RATIO, RERANK_MODEL, embedRerankEnv, rerank } from "../support/embed-rerank-env";

const KEY = "jina_test_key_abcdef";

describe.each(DIALECTS)("Jina channels on %s", (dialect) => {
  const env = embedRerankEnv(dialect, 38, startFakeJina, KEY);

  test("embeddings through the openai SDK (its base64 default as Jina's embedding_type), billed from Jina's usage", async () => {
    const { r, upstream } = env;
    const before = await r.userRow();
    const reply = await r.openai().embeddings.create({ model: EMBED_MODEL, input: ["a", "b", "c"] });
    expect(upstream.requests.at(-1)).toMatchObject({
      path: "/v1/embeddings",
      headers: { authorization: `Bearer ${KEY}` },
      body: { model: EMBED_MODEL, input: ["a", "b", "c"], embedding_type: "base64" },
    });
    expect([...reply.data[1]!.embedding]).toEqual([0.25, 0.5]);
    expect(before.quota - (await r.userRow()).quota).toBe(RATIO * 3 * JINA_TOKENS_PER_TEXT);
  });

  test("rerank passes through in Jina's (the relay's) shape, billed from its total_tokens", async () => {
    const { r, upstream } = env;
    const before = await r.userRow();
    const { status, body } = await rerank(r, { query: "q", documents: ["x", "y"], return_documents: true });
    expect(status).toBe(200);
    expect(upstream.requests.at(-1)).toMatchObject({ path: "/v1/rerank", body: { model: RERANK_MODEL, query: "q" } });
    expect(body.results[1]).toEqual({ index: 1, relevance_score: 0.5, document: { text: "y" } });
    expect(before.quota - (await r.userRow()).quota).toBe(RATIO * 17);
  });

  test("the channel test of a Jina channel is an embeddings call (Jina has no chat), and succeeds", async () => {
    const { r, upstream } = env;
    const id = (await r.s.ctx.db.k.selectFrom("channels").select("id").orderBy("id", "desc").executeTakeFirstOrThrow())
      .id;
    const reply = await r.s.root.get(`/api/channel/test/${id}?model=${EMBED_MODEL}`);
    expect(reply.body.success).toBe(true);
    expect(upstream.requests.at(-1)).toMatchObject({
      path: "/v1/embeddings",
      body: { model: EMBED_MODEL, input: "hi" },
    });
  });

  test("chat is refused clearly (Jina serves embeddings and rerank only), nothing sent, nothing billed", async () => {
    const { r, upstream } = env;
    const sent = upstream.requests.length;
    const before = await r.userRow();
    const error = await failure(
      r.openai().chat.completions.create({ model: "family-chat", messages: [{ role: "user", content: "hi" }] }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain("/v1/chat/completions is not supported by Jina channels");
    expect(upstream.requests.length).toBe(sent);
    expect((await r.userRow()).quota).toBe(before.quota);
  });
});
