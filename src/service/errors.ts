/**
 * A refusal the caller should see: a clear message, changing nothing.
 * `status` is the HTTP status the management API answers with (the dialect answers 200 for most refusals).
 */
export class ServiceError extends Error {
  constructor(
    message: string,
    readonly status = 200,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export const refuse = (message: string, status = 200): never => {
  throw new ServiceError(message, status);
};

export const notFound = (what: string): never => refuse(`${what} not found`, 200);
