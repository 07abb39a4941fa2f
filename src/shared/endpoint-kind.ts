/** The kinds of call the relay serves; a provider names the ones its family can express. */
export type EndpointKind =
  | "chat"
  | "completions"
  | "embeddings"
  | "moderations"
  | "images"
  | "speech"
  | "transcriptions"
  | "rerank"
  | "responses";
