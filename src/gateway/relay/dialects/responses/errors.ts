import type { DialectErrorFacts } from "../types";

/** OpenAI's error body, which the Responses API shares: {error:{message, type, param, code}}. */
export const openaiErrorBody = (e: DialectErrorFacts) => ({
  error: { message: e.message, type: e.type, param: null, code: e.code },
});
