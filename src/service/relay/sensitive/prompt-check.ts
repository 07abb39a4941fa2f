import type { ServiceContext } from "../../context";
import { RelayError } from "../errors";
import { WordMatcher } from "./word-matcher";

export const SENSITIVE_WORDS_DETECTED = "sensitive_words_detected";
export const SENSITIVE_MESSAGE = "the request contains sensitive words and was refused";

/**
 * The members that carry a prompt's text in every inbound dialect: OpenAI chat and completions (`content`,
 * `prompt`), Responses (`input`, `instructions`, parts' `text`), Anthropic (`system`, `content`, blocks' `text`),
 * Gemini (parts' `text`), embeddings and rerank (`input`, `query`, `documents`). A string under one of these
 * keys, or in an array under one, is checked; everything else (ids, roles, image data) is not.
 */
const TEXT_KEYS = new Set(["content", "text", "input", "instructions", "system", "prompt", "query", "documents"]);

let compiled: { words: string; matcher: WordMatcher | undefined } = { words: "", matcher: undefined };

/** The matcher of SensitiveWords (one per line, blank lines ignored), compiled once per change of the list. */
function matcherOf(words: string): WordMatcher | undefined {
  if (compiled.words !== words) {
    const list = words
      .split("\n")
      .map((w) => w.trim())
      .filter(Boolean);
    compiled = { words, matcher: list.length > 0 ? new WordMatcher(list) : undefined };
  }
  return compiled.matcher;
}

/** Whether the prompt check is on and has words: the relay's cheap test before any walk. */
export function promptCheckOn(ctx: ServiceContext): boolean {
  const o = ctx.options;
  return o.bool("CheckSensitiveEnabled") && o.bool("CheckSensitiveOnPromptEnabled") && o.raw("SensitiveWords") !== "";
}

type Visit = (text: string) => string;

/** Calls `visit` on every text string of `value` (see TEXT_KEYS); a changed string is written back in place. */
function walkTexts(value: unknown, visit: Visit, textual = false): void {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === "string") {
        if (textual) value[i] = visit(item);
      } else if (item !== null && typeof item === "object") walkTexts(item, visit, textual);
    }
    return;
  }
  if (value === null || typeof value !== "object") return;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === "string") {
      if (TEXT_KEYS.has(key)) record[key] = visit(item);
    } else if (item !== null && typeof item === "object") walkTexts(item, visit, TEXT_KEYS.has(key));
  }
}

export const sensitiveRefusal = () =>
  new RelayError(400, SENSITIVE_MESSAGE, SENSITIVE_WORDS_DETECTED, "invalid_request_error");

/**
 * The prompt side of the sensitive-word filter over the client's bodies (its own first and, for another dialect,
 * the pivot made from it). StopOnSensitiveEnabled: a word refuses the call (400 sensitive_words_detected); else each
 * occurrence is masked with asterisks in place and the answer is true (the caller re-serializes what it sends).
 * `maskable` false (a form body): a word refuses the call whatever the setting.
 */
export function checkPrompt(ctx: ServiceContext, bodies: readonly object[], maskable = true): boolean {
  const matcher = matcherOf(ctx.options.raw("SensitiveWords"));
  if (!matcher) return false;
  if (ctx.options.bool("StopOnSensitiveEnabled") || !maskable) {
    const refuse: Visit = (text) => {
      if (matcher.has(text)) throw sensitiveRefusal();
      return text;
    };
    // The first body is the client's own; the others are made from it and hold no text it lacks.
    walkTexts(bodies[0], refuse);
    return false;
  }
  let masked = false;
  const mask: Visit = (text) => {
    const out = matcher.mask(text);
    if (out !== text) masked = true;
    return out;
  };
  for (const body of bodies) walkTexts(body, mask);
  return masked;
}
