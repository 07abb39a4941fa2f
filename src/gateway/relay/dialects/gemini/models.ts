const GENERATION = ["generateContent", "streamGenerateContent", "countTokens"];
const EMBEDDING = ["embedContent", "batchEmbedContents"];

/** One model in Gemini's `Model` shape; embedding models offer the embed methods, the others generation. */
export function geminiModel(name: string) {
  const id = name.replace(/^models\//, "");
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: "001",
    displayName: id,
    description: id,
    supportedGenerationMethods: /embed/i.test(id) ? EMBEDDING : GENERATION,
  };
}

/** `GET /v1beta/models`: the models, `pageSize` at a time from the offset in `pageToken`. */
export function geminiModelList(names: string[], page: { pageSize?: number; pageToken?: string } = {}) {
  const start = Math.max(0, Number.parseInt(page.pageToken ?? "0", 10) || 0);
  const size = page.pageSize && page.pageSize > 0 ? Math.min(page.pageSize, 1000) : names.length;
  const end = start + size;
  return {
    models: names.slice(start, end).map(geminiModel),
    ...(end < names.length && { nextPageToken: String(end) }),
  };
}
