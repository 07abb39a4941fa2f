import { invalidRequest } from "../../../../shared/relay-error";
import { chatTurns, type Part } from "../chat-messages";
import { toolChoiceOf, toolsOf } from "../chat-tools";
import { isNumber, stopList, tokenCount } from "../openai-shape";
import { jsonInstruction, responseFormatOf } from "../response-format";
import { refuseSeveralChoices, refuseUntranslatable } from "../untranslatable";

const FAMILY = "AWS Bedrock (Converse)";
/** Converse's image formats, by media type. */
const IMAGE_FORMATS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

function block(p: Part): object {
  if ("text" in p) return { text: p.text };
  if ("image" in p) {
    const format = IMAGE_FORMATS[p.image.mediaType];
    if (!format) throw invalidRequest(`images of type ${p.image.mediaType} are not supported on ${FAMILY} channels`);
    return { image: { format, source: { bytes: p.image.data } } };
  }
  if ("imageUrl" in p)
    throw invalidRequest(`image URLs are not supported on ${FAMILY} channels; send the image as a base64 data: URL`);
  if ("toolCall" in p) return { toolUse: { toolUseId: p.toolCall.id, name: p.toolCall.name, input: p.toolCall.input } };
  return { toolResult: { toolUseId: p.toolResult.id, content: [{ text: p.toolResult.content }] } };
}

function toolConfig(body: Record<string, any>): object | undefined {
  const tools = toolsOf(body);
  if (!tools.length) return undefined;
  const specs = tools.map((t) => ({
    toolSpec: {
      name: t.name,
      ...(t.description && { description: t.description }),
      inputSchema: { json: t.parameters ?? { type: "object", properties: {} } },
    },
  }));
  const choice = toolChoiceOf(body);
  // Converse has no "none": the tools are described (earlier turns may use them) and the model is told to answer.
  if (choice === "none") return { tools: specs };
  const toolChoice =
    choice === "required" ? { any: {} } : typeof choice === "object" ? { tool: { name: choice.name } } : { auto: {} };
  return { tools: specs, toolChoice };
}

/** The Converse API body for an OpenAI chat request (the model is in the path). */
export function converseBody(body: Record<string, any>): Record<string, unknown> {
  refuseUntranslatable(body, FAMILY);
  refuseSeveralChoices(body, FAMILY);
  const { system, turns } = chatTurns(body, FAMILY);
  const format = responseFormatOf(body);
  const out: Record<string, unknown> = {
    messages: turns.map((t) => ({ role: t.role, content: t.parts.map(block) })),
  };
  const systemText = [system, format && jsonInstruction(format)].filter(Boolean).join("\n\n");
  if (systemText) out.system = [{ text: systemText }];
  const inference: Record<string, unknown> = {};
  const maxTokens = tokenCount(body.max_completion_tokens) || tokenCount(body.max_tokens);
  if (maxTokens) inference.maxTokens = maxTokens;
  if (isNumber(body.temperature)) inference.temperature = body.temperature;
  if (isNumber(body.top_p)) inference.topP = body.top_p;
  const stop = stopList(body.stop);
  if (stop) inference.stopSequences = stop;
  if (Object.keys(inference).length) out.inferenceConfig = inference;
  const tools = toolConfig(body);
  if (tools) out.toolConfig = tools;
  return out;
}
