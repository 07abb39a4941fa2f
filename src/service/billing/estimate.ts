/**
 * Token estimates for pre-consume and for replies the upstream did not meter (compat §5.2), counted with
 * OpenAI's BPE encodings (encodings.ts), all on the counting thread (counting-thread.ts): a prompt that sizes a
 * hold while the call awaits it; the rare count at settle (a reply without usage) while the server's thread
 * waits for it, so the encodings' 20–30 MB never enter the server's heap.
 */
import { CountingThread } from "./counting-thread";
import type { EncodingName } from "./encodings";

const countingThread = new CountingThread();

/** Loads both encodings now on the counting thread (each load costs a few hundred ms). */
export async function loadTokenizers(): Promise<void> {
  await Promise.all([countingThread.count("o200k_base", []), countingThread.count("cl100k_base", [])]);
}

/** cl100k_base for the GPT-4 / GPT-3.5 generation and the embedding models; o200k_base for everything newer and for other vendors' models. */
export function encodingFor(model: string): EncodingName {
  const name = model.toLowerCase().split("/").at(-1)!;
  if (/^gpt-4o|^gpt-4\.[1-9]|^chatgpt-4o/.test(name)) return "o200k_base";
  if (/^gpt-4|^gpt-3\.5|^gpt-35|^text-embedding-|^text-davinci|^text-moderation/.test(name)) return "cl100k_base";
  return "o200k_base";
}

/** The texts of a prompt still to count, and the tokens it costs beyond them (framing, media parts). */
export interface PromptParts {
  texts: string[];
  fixed: number;
}

/** Tokens of one text, in bounded work (see token-count.ts), counted now. */
export function countTextTokens(model: string, text: string): number {
  return text ? countingThread.countWaiting(encodingFor(model), [text]) : 0;
}

/** Tokens of gathered prompt parts, counted now in bounded work. */
export function countParts(model: string, parts: PromptParts): number {
  return parts.fixed + (parts.texts.length > 0 ? countingThread.countWaiting(encodingFor(model), parts.texts) : 0);
}

/** The same count on the counting thread, within its larger budget (see token-count.ts). */
export async function countPartsOffThread(model: string, parts: PromptParts): Promise<number> {
  return parts.fixed + (parts.texts.length > 0 ? await countingThread.count(encodingFor(model), parts.texts) : 0);
}

/** Characters of text in gathered prompt parts. */
export const partsLength = (parts: PromptParts) => parts.texts.reduce((sum, text) => sum + text.length, 0);

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

function addPart(parts: PromptParts, part: any): void {
  if (typeof part === "string") parts.texts.push(part);
  else if (typeof part?.text === "string") parts.texts.push(part.text);
  else if (part?.type === "image_url" || part?.type === "input_image") {
    parts.fixed += (part.image_url?.detail ?? part.detail) === "low" ? IMAGE_LOW_DETAIL_TOKENS : IMAGE_TOKENS;
  } else if (part?.type === "input_audio") parts.fixed += AUDIO_TOKENS;
  else if (part?.type === "refusal") parts.texts.push(String(part.refusal ?? ""));
  else parts.fixed += FILE_TOKENS;
}

function addContent(parts: PromptParts, content: unknown): void {
  if (typeof content === "string") parts.texts.push(content);
  else if (Array.isArray(content)) for (const part of content) addPart(parts, part);
}

function addToolCalls(parts: PromptParts, calls: unknown): void {
  if (!Array.isArray(calls)) return;
  for (const call of calls)
    parts.texts.push(String(call?.function?.name ?? ""), String(call?.function?.arguments ?? ""));
}

/**
 * Prompt tokens of an OpenAI chat request: the text of every message (content, `name`, tool calls) plus
 * 3 per message, 3 per name, 8 per tool with its name, description and parameter schema, and 3 for the
 * reply priming. Roles are not counted, as in the dialect we are compatible with.
 */
export function chatPromptParts(messages: readonly any[], tools?: readonly any[]): PromptParts {
  const parts: PromptParts = { texts: [], fixed: REPLY_PRIMING_TOKENS };
  for (const message of messages) {
    parts.fixed += TOKENS_PER_MESSAGE;
    addContent(parts, message?.content);
    addToolCalls(parts, message?.tool_calls);
    if (typeof message?.name === "string" && message.name) {
      parts.fixed += TOKENS_PER_NAME;
      parts.texts.push(message.name);
    }
  }
  for (const tool of Array.isArray(tools) ? tools : []) {
    const fn = tool?.function ?? tool;
    parts.fixed += TOKENS_PER_TOOL;
    parts.texts.push(String(fn?.name ?? ""), String(fn?.description ?? ""));
    if (fn?.parameters !== undefined) parts.texts.push(JSON.stringify(fn.parameters));
  }
  return parts;
}

export const estimateChatPromptTokens = (model: string, messages: readonly any[], tools?: readonly any[]) =>
  countParts(model, chatPromptParts(messages, tools));

/**
 * Tokens of an embeddings / completions / moderations input: a string, a list of strings, a token array
 * (its length) or a list of token arrays. An object counts its `text`, else its JSON text.
 */
export function inputParts(input: unknown, parts: PromptParts = { texts: [], fixed: 0 }): PromptParts {
  if (typeof input === "string") parts.texts.push(input);
  else if (Array.isArray(input)) {
    if (input.every((x) => typeof x === "number")) parts.fixed += input.length;
    else for (const item of input) inputParts(item, parts);
  } else if (input !== undefined && input !== null) {
    const text = (input as { text?: unknown }).text;
    parts.texts.push(typeof text === "string" ? text : JSON.stringify(input));
  }
  return parts;
}

export const estimateInputTokens = (model: string, input: unknown) => countParts(model, inputParts(input));
