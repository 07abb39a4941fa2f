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

/** What an inbound dialect cannot express in the internal call shape: a 400 naming the parameter. */
export class DialectRefusal extends RelayError {
  constructor(message: string) {
    super(400, message, "invalid_request", "invalid_request_error");
    this.name = "DialectRefusal";
  }
}
