import { invalidRequest } from "../../../shared/relay-error";

/**
 * Refuses what a family's dialect cannot carry, naming the parameter, rather than dropping it: the answer
 * would differ from what the client asked for. `n` is left to each family (Gemini has candidateCount).
 */
export function refuseUntranslatable(body: Record<string, any>, family: string): void {
  const refuse = (parameter: string) =>
    invalidRequest(`${parameter} is not supported on ${family} channels`, "unsupported_parameter");
  if (body.functions !== undefined || body.function_call !== undefined)
    throw refuse("functions/function_call (the legacy form; use tools/tool_choice)");
  if (body.logprobs === true) throw refuse("logprobs");
  if (body.top_logprobs !== undefined && body.top_logprobs !== null) throw refuse("top_logprobs");
  if (body.audio !== undefined && body.audio !== null) throw refuse("audio");
  if (Array.isArray(body.modalities) && body.modalities.some((m: unknown) => m !== "text"))
    throw refuse("modalities other than text");
  if (body.messages?.some?.((m: any) => m?.role === "function")) throw refuse('messages with role "function"');
}

/** `n` > 1, refused for a family that answers one choice per call. */
export function refuseSeveralChoices(body: Record<string, any>, family: string, why = ""): void {
  if (typeof body.n === "number" && body.n > 1)
    throw invalidRequest(`n > 1 is not supported on ${family} channels${why}`, "unsupported_parameter");
}
