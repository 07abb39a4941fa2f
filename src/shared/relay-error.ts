/** A refusal on the relay, rendered in OpenAI's shape {error:{message, type, code}} with an honest status. */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly type = "tollgate_error",
    /** Seconds, for 429 and 503 replies. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "RelayError";
  }
}

export const invalidRequest = (message: string, code = "invalid_request") =>
  new RelayError(400, message, code, "invalid_request_error");
