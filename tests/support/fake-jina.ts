import { expectShape, startLoopbackFake } from "./loopback-fake";

export const JINA_TOKENS_PER_TEXT = 5;

/** A loopback Jina API: /v1/embeddings (embedding_type, not OpenAI's encoding_format) and /v1/rerank, bearer key. */
export const startFakeJina = (key: string) =>
  startLoopbackFake(key, ({ path, body }) => {
    if (path === "/v1/embeddings") {
      expectShape(!("encoding_format" in body), "encoding_format is not a Jina field");
      expectShape(Array.isArray(body.input) || typeof body.input === "string", "input is required");
      const texts: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const tokens = JINA_TOKENS_PER_TEXT * texts.length;
      const vector = (i: number) => [0.125 * (i + 1), 0.5];
      const encode = (v: number[]) => Buffer.from(new Float32Array(v).buffer).toString("base64");
      return Response.json({
        model: body.model,
        object: "list",
        usage: { total_tokens: tokens, prompt_tokens: tokens },
        data: texts.map((_, i) => ({
          object: "embedding",
          index: i,
          embedding: body.embedding_type === "base64" ? encode(vector(i)) : vector(i),
        })),
      });
    }
    if (path === "/v1/rerank") {
      expectShape(typeof body.query === "string" && Array.isArray(body.documents), "query and documents are required");
      return Response.json({
        model: body.model,
        usage: { total_tokens: 17 },
        results: body.documents.map((d: string, index: number) => ({
          index,
          relevance_score: 1 / (index + 1),
          document: { text: d },
        })),
      });
    }
    return Response.json({ detail: "Not Found" }, { status: 404 });
  });
