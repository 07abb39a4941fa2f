import { invalidRequest } from "../../../shared/relay-error";
import { tokenCount } from "../../../shared/token-count";

/**
 * The thinking budget reasoning_effort stands for where the upstream takes a token budget: Claude's minimum
 * budget (1024) for low, 8192 for medium, 24576 for high. "none" asks for no thinking (0).
 */
export const EFFORT_BUDGET: Record<string, number> = { none: 0, minimal: 1024, low: 1024, medium: 8192, high: 24576 };

/** The request's thinking budget in tokens: thinking_budget wins over reasoning_effort; undefined for neither. */
export function thinkingBudgetOf(body: Record<string, any>): number | undefined {
  if (body.thinking_budget !== undefined && body.thinking_budget !== null) {
    if (typeof body.thinking_budget !== "number" || body.thinking_budget < 0)
      throw invalidRequest("thinking_budget must be a number of tokens (0 or more)");
    return tokenCount(body.thinking_budget);
  }
  const effort = body.reasoning_effort;
  if (effort === undefined || effort === null) return undefined;
  const budget = EFFORT_BUDGET[String(effort)];
  if (budget === undefined)
    throw invalidRequest(`reasoning_effort must be one of ${Object.keys(EFFORT_BUDGET).join(", ")}`);
  return budget;
}
