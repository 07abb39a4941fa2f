/**
 * A channel `setting` key: how an OpenAI-family channel serves POST /v1/responses. "auto" (the default) passes the
 * call through and translates it to chat completions once the upstream answers 404/405/501 (remembered per
 * channel); "native" always passes it through; "translate" always translates it.
 */
export const RESPONSES_API_SETTING = "responses_api";
export const RESPONSES_API_MODES = ["auto", "native", "translate"] as const;
export type ResponsesApiMode = (typeof RESPONSES_API_MODES)[number];

/** Channel types whose family is not OpenAI's (Anthropic, Gemini): they always translate Responses calls. */
const TRANSLATING_TYPES = new Set([14, 24]);

/** Whether the channel form offers the setting for a type: every OpenAI-family type (OpenAI-compatible, Azure). */
export const offersResponsesApi = (type: number) => !TRANSLATING_TYPES.has(type);

/** The mode a channel's setting JSON text names; "auto" when it names none (or is not JSON). */
export function responsesApiMode(setting: string): ResponsesApiMode {
  if (!setting) return "auto";
  try {
    const value = JSON.parse(setting)?.[RESPONSES_API_SETTING];
    return RESPONSES_API_MODES.includes(value) ? value : "auto";
  } catch {
    return "auto";
  }
}
