/**
 * Token estimates for pre-consume and for replies the upstream did not meter (compat §5.2), counted with
 * OpenAI's BPE encodings (gpt-tokenizer). An encoding takes a few hundred ms to load, so each one is
 * loaded on first use, not at server start; `loadTokenizers` lets a server warm them when idle.
 */
import type * as Encoding from "gpt-tokenizer/encoding/o200k_base";

type EncodingName = "o200k_base" | "cl100k_base";

const encodings = new Map<EncodingName, typeof Encoding>();

function encoding(name: EncodingName): typeof Encoding {
  let loaded = encodings.get(name);
  if (!loaded) {
    // Literal specifiers, so `bun build --compile` still bundles them.
    loaded = name === "cl100k_base" ? require("gpt-tokenizer/encoding/cl100k_base") : require("gpt-tokenizer/encoding/o200k_base");
    encodings.set(name, loaded!);
  }
  return loaded!;
}

/** Loads both encodings now (each costs a few hundred ms of CPU), e.g. shortly after the server is listening. */
export function loadTokenizers(): void {
  encoding("o200k_base");
  encoding("cl100k_base");
}

/** cl100k_base for the GPT-4 / GPT-3.5 generation and the embedding models; o200k_base for everything newer and for other vendors' models. */
export function encodingFor(model: string): EncodingName {
  const name = model.toLowerCase().split("/").at(-1)!;
  if (/^gpt-4o|^gpt-4\.[1-9]|^chatgpt-4o/.test(name)) return "o200k_base";
  if (/^gpt-4|^gpt-3\.5|^gpt-35|^text-embedding-|^text-davinci|^text-moderation/.test(name)) return "cl100k_base";
  return "o200k_base";
}

/** User text may contain "<|endoftext|>" and the like: count it as plain text, as the API does. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTextTokens(model: string, text: string): number {
  if (!text) return 0;
  return encoding(encodingFor(model)).countTokens(text, AS_PLAIN_TEXT);
}

/** OpenAI chat framing (compat §5.2): per message, per `name`, per tool, and the reply priming. */
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_NAME = 3;
export const TOKENS_PER_TOOL = 8;
export const REPLY_PRIMING_TOKENS = 3;

/**
 * Fixed estimates for media parts we do not download: an image is OpenAI's base tile cost (85) when it asks
 * for detail "low", else the dialect's flat 520 for images; audio 256; files and unknown parts 4096.
 */
export const IMAGE_LOW_DETAIL_TOKENS = 85;
export const IMAGE_TOKENS = 520;
export const AUDIO_TOKENS = 256;
export const FILE_TOKENS = 4096;

function partTokens(model: string, part: any): number {
  if (typeof part === "string") return countTextTokens(model, part);
  if (typeof part?.text === "string") return countTextTokens(model, part.text);
  switch (part?.type) {
    case "image_url":
    case "input_image":
      return (part.image_url?.detail ?? part.detail) === "low" ? IMAGE_LOW_DETAIL_TOKENS : IMAGE_TOKENS;
    case "input_audio":
      return AUDIO_TOKENS;
    case "refusal":
      return countTextTokens(model, String(part.refusal ?? ""));
    default:
      return FILE_TOKENS;
  }
}

function contentTokens(model: string, content: unknown): number {
  if (typeof content === "string") return countTextTokens(model, content);
  if (!Array.isArray(content)) return 0;
  let tokens = 0;
  for (const part of content) tokens += partTokens(model, part);
  return tokens;
}

function toolCallTokens(model: string, calls: unknown): number {
  if (!Array.isArray(calls)) return 0;
  let tokens = 0;
  for (const call of calls) {
    tokens += countTextTokens(model, String(call?.function?.name ?? ""));
    tokens += countTextTokens(model, String(call?.function?.arguments ?? ""));
  }
  return tokens;
}

/**
 * Prompt tokens of an OpenAI chat request: the text of every message (content, `name`, tool calls) plus
 * 3 per message, 3 per name, 8 per tool with its name, description and parameter schema, and 3 for the
 * reply priming. Roles are not counted, as in the dialect we are compatible with.
 */
export function estimateChatPromptTokens(model: string, messages: readonly any[], tools?: readonly any[]): number {
  let tokens = REPLY_PRIMING_TOKENS;
  for (const message of messages) {
    tokens += TOKENS_PER_MESSAGE + contentTokens(model, message?.content) + toolCallTokens(model, message?.tool_calls);
    if (typeof message?.name === "string" && message.name) tokens += TOKENS_PER_NAME + countTextTokens(model, message.name);
  }
  for (const tool of Array.isArray(tools) ? tools : []) {
    const fn = tool?.function ?? tool;
    tokens += TOKENS_PER_TOOL + countTextTokens(model, String(fn?.name ?? "")) + countTextTokens(model, String(fn?.description ?? ""));
    if (fn?.parameters !== undefined) tokens += countTextTokens(model, JSON.stringify(fn.parameters));
  }
  return tokens;
}

/**
 * Tokens of an embeddings / completions / moderations input: a string, a list of strings, a token array
 * (its length) or a list of token arrays. An object counts its `text`, else its JSON text.
 */
export function estimateInputTokens(model: string, input: unknown): number {
  if (typeof input === "string") return countTextTokens(model, input);
  if (Array.isArray(input)) {
    if (input.every((x) => typeof x === "number")) return input.length;
    let tokens = 0;
    for (const item of input) tokens += estimateInputTokens(model, item);
    return tokens;
  }
  if (input === undefined || input === null) return 0;
  const text = (input as { text?: unknown }).text;
  return countTextTokens(model, typeof text === "string" ? text : JSON.stringify(input));
}
