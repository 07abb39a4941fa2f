import { messagesBody } from "../anthropic/request";

/** Bedrock's version of the Messages API, sent in the body (the model is in the path, streaming in the action). */
const BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31";

/** The body of invoke / invoke-with-response-stream for a Claude model: Anthropic's, without `model` and `stream`. */
export function invokeBody(json: Record<string, any>): Record<string, unknown> {
  const { model: _model, stream: _stream, ...body } = messagesBody(json, "", false);
  return { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...body };
}
