import type { DialectErrorFacts } from "../types";

/** Anthropic's error types by HTTP status; other 5xx are api_error. */
const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** Anthropic's error body: {type:"error", error:{type, message}}. */
export const anthropicErrorBody = (e: DialectErrorFacts) => ({
  type: "error",
  error: {
    type: ERROR_TYPES[e.status] ?? (e.status >= 500 ? "api_error" : "invalid_request_error"),
    message: e.message,
  },
});
