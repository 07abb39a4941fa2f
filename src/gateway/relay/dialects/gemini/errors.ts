import type { RelayError } from "../../../../shared/relay-error";

/** Google's canonical status names for the HTTP codes the gateway answers with. */
const STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "UNIMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

export function googleStatusOf(code: number): string {
  return STATUS[code] ?? (code >= 500 ? "INTERNAL" : "FAILED_PRECONDITION");
}

/** Google's error body `{error:{code, message, status}}`. */
export function geminiErrorBody(code: number, message: string) {
  return { error: { code, message, status: googleStatusOf(code) } };
}

export const geminiErrorOf = (error: RelayError) => geminiErrorBody(error.status, error.message);
