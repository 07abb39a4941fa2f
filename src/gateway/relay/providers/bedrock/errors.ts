import type { UpstreamError } from "../types";

/** Bedrock's error reply: {message} (some services spell it Message); the type travels in x-amzn-errortype. */
export function bedrockErrorOf(reply: any): UpstreamError {
  const message = reply?.message ?? reply?.Message;
  return typeof message === "string" ? { message } : {};
}
