import { invalidRequest } from "../../../shared/relay-error";
import { nowSeconds } from "../../../shared/time";
import { tokenCount } from "../../../shared/token-count";

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
export function openaiUsage(t: TokenCounts) {
  return {
    prompt_tokens: t.prompt,
    completion_tokens: t.completion,
    total_tokens: t.prompt + t.completion,
    prompt_tokens_details: {
      cached_tokens: t.cached,
      ...(t.cacheWrite ? { cached_creation_tokens: t.cacheWrite } : {}),
    },
    ...(t.reasoning ? { completion_tokens_details: { reasoning_tokens: t.reasoning } } : {}),
  };
}

export function chatCompletion(p: {
  id: string;
  model: string;
  choices: { content: string; reasoning: string; finish: FinishReason }[];
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
        content: c.content,
        ...(c.reasoning && { reasoning_content: c.reasoning }),
        refusal: null,
      },
      logprobs: null,
      finish_reason: c.finish,
    })),
    ...(p.usage && { usage: openaiUsage(p.usage) }),
  };
}

/** Writes the chunks of one streamed completion as OpenAI SSE events. */
export class ChunkWriter {
  private readonly created = nowSeconds();
  private roleSent = false;
  constructor(
    public id: string,
    public model: string,
  ) {}

  private event(choices: unknown[], extra?: object): string {
    return `data: ${JSON.stringify({ id: this.id, object: "chat.completion.chunk", created: this.created, model: this.model, choices, ...extra })}\n\n`;
  }

  /** A content (and/or reasoning) delta, the first one carrying the assistant role; "" when there is nothing to say. */
  delta(content: string, reasoning = "", finish: FinishReason | null = null): string {
    if (!content && !reasoning && !finish && this.roleSent) return "";
    const delta: Record<string, string> = this.roleSent ? {} : { role: "assistant", content: "" };
    this.roleSent = true;
    if (content) delta.content = content;
    if (reasoning) delta.reasoning_content = reasoning;
    return this.event([{ index: 0, delta, logprobs: null, finish_reason: finish }]);
  }

  usage(t: TokenCounts): string {
    return this.event([], { usage: openaiUsage(t) });
  }

  error(message: string, type: string): string {
    return `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`;
  }

  done(): string {
    return "data: [DONE]\n\n";
  }
}

/** A content part the other dialects can carry: text, or an image by data or URL. */
export type Part = { text: string } | { image: { mediaType: string; data: string } } | { imageUrl: string };

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** The parts of an OpenAI message's content (a string or an array of text and image_url parts). */
export function partsOf(content: unknown, family: string): Part[] {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return [{ text: content }];
  if (!Array.isArray(content)) throw invalidRequest("message content must be a string or an array of parts");
  return content.map((part: any): Part => {
    if (part?.type === "text") return { text: String(part.text ?? "") };
    if (part?.type === "image_url") {
      const url = String(part.image_url?.url ?? part.image_url ?? "");
      const data = DATA_URL.exec(url);
      if (data) return { image: { mediaType: data[1]!, data: data[2]! } };
      if (/^https?:\/\//i.test(url)) return { imageUrl: url };
      throw invalidRequest("image_url must be an http(s) URL or a base64 data: URL");
    }
    throw invalidRequest(`content parts of type ${JSON.stringify(part?.type)} are not supported on ${family} channels`);
  });
}

/** A system message's text (its text parts joined). */
export function textOf(content: unknown, family: string): string {
  return partsOf(content, family)
    .map((p) => {
      if (!("text" in p)) throw invalidRequest("system messages take text only");
      return p.text;
    })
    .join("\n");
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

/** An OpenAI chat request's messages as the other dialects take them: the system text apart, then the turns. */
export function chatTurns(
  body: Record<string, any>,
  family: string,
): { system: string; turns: { role: "user" | "assistant"; parts: Part[] }[] } {
  refuseUntranslatable(body, family);
  if (!Array.isArray(body.messages)) throw invalidRequest("messages must be an array");
  const system: string[] = [];
  const turns: { role: "user" | "assistant"; parts: Part[] }[] = [];
  for (const m of body.messages) {
    const role = m?.role;
    if (role === "system" || role === "developer") system.push(textOf(m.content, family));
    // Consecutive turns of one role are allowed: both APIs join them.
    else if (role === "user" || role === "assistant") turns.push({ role, parts: partsOf(m.content, family) });
    else throw invalidRequest(`messages with role ${JSON.stringify(role)} are not supported on ${family} channels`);
  }
  return { system: system.join("\n\n"), turns };
}

/** What this translation does not carry; refused rather than silently dropped, since the answer would differ. */
export function refuseUntranslatable(body: Record<string, any>, family: string): void {
  const tools = Array.isArray(body.tools) && body.tools.length > 0;
  const toolTurns =
    Array.isArray(body.messages) &&
    body.messages.some((m: any) => m?.role === "tool" || m?.role === "function" || m?.tool_calls?.length);
  if (tools || body.functions || toolTurns)
    throw invalidRequest(`tool calling is not supported on ${family} channels`, "unsupported_parameter");
  if (typeof body.n === "number" && body.n > 1)
    throw invalidRequest(`n > 1 is not supported on ${family} channels`, "unsupported_parameter");
}

export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
