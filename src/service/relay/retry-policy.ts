import type { ServiceContext } from "../context";
import { statusMatcher } from "./status-ranges";

/** How one failed upstream attempt went: an HTTP status (0 = no response: connect error or timeout) and its message. */
export interface AttemptFailure {
  status: number;
  message: string;
  /** Seconds the upstream asked us to wait (Retry-After). */
  retryAfter?: number;
}

const matchers = new Map<string, (status: number) => boolean>();
function matches(spec: string, status: number): boolean {
  let matcher = matchers.get(spec);
  if (!matcher) matchers.set(spec, (matcher = statusMatcher(spec)));
  return matcher(status);
}

/** Worth trying another channel: no response at all, or a status in AutomaticRetryStatusCodes (never 504/524). */
export function shouldRetry(ctx: ServiceContext, failure: AttemptFailure): boolean {
  const { status } = failure;
  if (status < 100 || status > 599) return true;
  if (status === 504 || status === 524) return false;
  return matches(ctx.options.raw("AutomaticRetryStatusCodes"), status);
}

/** The channel looks broken, not the request: 401, a status in AutomaticDisableStatusCodes, or a keyword. */
export function disableReason(ctx: ServiceContext, failure: AttemptFailure): string | undefined {
  if (failure.status === 401 || matches(ctx.options.raw("AutomaticDisableStatusCodes"), failure.status)) {
    return `status code ${failure.status}: ${failure.message}`.slice(0, 500);
  }
  const message = failure.message.toLowerCase();
  const keywords = ctx.options
    .raw("AutomaticDisableKeywords")
    .split("\n")
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean);
  const hit = keywords.find((k) => message.includes(k));
  return hit ? `keyword "${hit}": ${failure.message}`.slice(0, 500) : undefined;
}

/** The channel's status_code_mapping applied to an upstream error status ({"400":"500"}); never to 2xx. */
export function mapStatus(mapping: Record<string, string>, status: number): number {
  if (status >= 200 && status < 300) return status;
  const mapped = Number(mapping[String(status)]);
  return Number.isInteger(mapped) && mapped >= 100 && mapped <= 599 ? mapped : status;
}
