import { nowSeconds } from "../../../shared/time";
import { tokenCount } from "../../../shared/token-count";
import type { PivotEvent } from "../pivot-events";
import { jsonText } from "../../../shared/json-text";

/** What the client's OpenAI chat request becomes in other dialects: shared reading helpers and reply builders. */

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface TokenCounts {
  prompt: number;
  completion: number;
  /** Part of `prompt` read from the upstream's prompt cache. */
  cached: number;
  /** Part of `prompt` written to the upstream's prompt cache. */
  cacheWrite?: number;
  /** Part of `completion` spent on thinking. */
  reasoning?: number;
}

export { tokenCount };

/** OpenAI's usage object, as reportedUsage reads it back for billing. */
export function openaiUsage(t: TokenCounts): OpenAIUsage {
  const details: OpenAIUsage["prompt_tokens_details"] = { cached_tokens: t.cached };
  if (t.cacheWrite) details.cached_creation_tokens = t.cacheWrite;
  const usage: OpenAIUsage = {
    prompt_tokens: t.prompt,
    completion_tokens: t.completion,
    total_tokens: t.prompt + t.completion,
    prompt_tokens_details: details,
  };
  if (t.reasoning) usage.completion_tokens_details = { reasoning_tokens: t.reasoning };
  return usage;
}

/** OpenAI's usage object as `openaiUsage` writes it. */
export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cached_creation_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

/** A tool call of a reply: the function's arguments as JSON text. */
export interface ReplyToolCall {
  id: string;
  name: string;
  arguments: string;
}

const openaiToolCall = (c: ReplyToolCall) => ({
  id: c.id,
  type: "function",
  function: { name: c.name, arguments: c.arguments },
});

export function chatCompletion(p: {
  id: string;
  model: string;
  choices: { content: string; reasoning: string; finish: FinishReason; toolCalls?: ReplyToolCall[] }[];
  usage?: TokenCounts;
}) {
  return {
    id: p.id,
    object: "chat.completion",
    created: nowSeconds(),
    model: p.model,
    choices: p.choices.map((c, index) => ({
      index,
      message: {
        role: "assistant",
        // As OpenAI answers a turn of tool calls alone: content null.
        content: c.toolCalls?.length && !c.content ? null : c.content,
        ...(c.reasoning && { reasoning_content: c.reasoning }),
        ...(c.toolCalls?.length && { tool_calls: c.toolCalls.map(openaiToolCall) }),
        refusal: null,
      },
      logprobs: null,
      finish_reason: c.finish,
    })),
    ...(p.usage && { usage: openaiUsage(p.usage) }),
  };
}

/**
 * A content delta's choices, the usual event, up to its text and after it: written around the text without the
 * chunk's objects when nothing records them (JSON.stringify's text of `delta`'s choices).
 */
const CONTENT_CHOICE_HEAD = '[{"index":0,"delta":{"content":';
const CONTENT_CHOICE_END = '},"logprobs":null,"finish_reason":null}]';

/** Writes the chunks of one streamed completion as OpenAI SSE events. */
export class ChunkWriter {
  private readonly created = nowSeconds();
  private roleSent = false;
  /** When set, every event written is also appended here as its object (see `mapWholeEventObjects`). */
  record?: PivotEvent[];
  /** Events are only recorded: no text is written (every method answers ""). */
  textless = false;
  /** `id` undefined: a random chatcmpl id, made when first written (mappers usually learn the upstream's first). */
  constructor(
    private givenId: string | undefined,
    public model: string,
  ) {}

  get id(): string {
    this.givenId ??= `chatcmpl-${crypto.randomUUID()}`;
    return this.givenId;
  }

  set id(id: string) {
    this.givenId = id;
  }

  private write(event: Record<string, unknown>): string {
    this.record?.push(event);
    return this.textless ? "" : `data: ${JSON.stringify(event)}\n\n`;
  }

  private event(choices: unknown[]): string {
    const { id, created, model } = this;
    this.record?.push({ id, object: "chat.completion.chunk", created, model, choices });
    if (this.textless) return "";
    return `data: ${this.head()}${JSON.stringify(choices)}}\n\n`;
  }

  /** A chunk's JSON up to its choices' value, written again only when the id or model has changed since. */
  private head(): string {
    if (this.headId !== this.id || this.headModel !== this.model) {
      const { id, created, model } = this;
      this.headId = id;
      this.headModel = model;
      this.headText = `${JSON.stringify({ id, object: "chat.completion.chunk", created, model }).slice(0, -1)},"choices":`;
    }
    return this.headText;
  }
  private headId?: string;
  private headModel?: string;
  private headText = "";

  /** A content (and/or reasoning) delta, the first one carrying the assistant role; "" when there is nothing to say. */
  delta(content: string, reasoning = "", finish: FinishReason | null = null): string {
    if (!content && !reasoning && !finish && this.roleSent) return "";
    if (content && !reasoning && !finish && this.roleSent && !this.record && !this.textless)
      return `data: ${this.head()}${CONTENT_CHOICE_HEAD}${jsonText(content)}${CONTENT_CHOICE_END}}\n\n`;
    const delta: Record<string, string> = this.roleSent ? {} : { role: "assistant", content: "" };
    this.roleSent = true;
    if (content) delta.content = content;
    if (reasoning) delta.reasoning_content = reasoning;
    return this.event([{ index: 0, delta, logprobs: null, finish_reason: finish }]);
  }

  /**
   * A tool call delta: the first for a call carries its id and name (and whatever arguments are known),
   * later ones only argument text.
   */
  toolCall(index: number, args: string, start?: { id: string; name: string }): string {
    const call = start
      ? { index, id: start.id, type: "function", function: { name: start.name, arguments: args } }
      : { index, function: { arguments: args } };
    const delta: Record<string, unknown> = this.roleSent ? {} : { role: "assistant", content: null };
    this.roleSent = true;
    delta.tool_calls = [call];
    return this.event([{ index: 0, delta, logprobs: null, finish_reason: null }]);
  }

  usage(t: TokenCounts): string {
    const { id, created, model } = this;
    return this.write({ id, object: "chat.completion.chunk", created, model, choices: [], usage: openaiUsage(t) });
  }

  error(message: string, type: string): string {
    return this.write({ error: { message, type, param: null, code: null } });
  }

  done(): string {
    this.record?.push("[DONE]");
    return this.textless ? "" : "data: [DONE]\n\n";
  }
}

/** stop as a list: OpenAI takes a string or up to four strings. */
export function stopList(stop: unknown): string[] | undefined {
  if (typeof stop === "string") return stop ? [stop] : undefined;
  if (Array.isArray(stop)) {
    const list = stop.filter((s): s is string => typeof s === "string" && s !== "");
    return list.length ? list : undefined;
  }
  return undefined;
}

export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
