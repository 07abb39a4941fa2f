import type { ChargedCall } from "../../service/billing/call-charge";
import { RelayError } from "../../service/relay/errors";
import { checkPrompt } from "../../service/relay/sensitive/prompt-check";
import type { RelayRequest } from "./parse";

/**
 * The sensitive-word filter on a call's prompt, before anything is charged or sent: a refusal is logged (when
 * error logs are on) and thrown; a masked prompt is written back to the bodies the upstream call is built from.
 */
export function screenPrompt<S extends ChargedCall & { req: RelayRequest }>(
  s: S,
  logFailure: (s: S, failure: RelayError) => void,
): void {
  const { req } = s;
  const bodies = req.inbound ? [req.inbound.body, req.json ?? {}] : [req.json ?? {}];
  try {
    // A form (multipart) body has no text to mask; an inbound call's pivot text is not made just to ask.
    if (!checkPrompt(s.ctx, bodies, req.inbound !== undefined || req.raw !== "")) return;
  } catch (error) {
    if (error instanceof RelayError) logFailure(s, error);
    throw error;
  }
  req.raw = JSON.stringify(req.json);
  if (req.inbound) req.inbound.raw = JSON.stringify(req.inbound.body);
}
