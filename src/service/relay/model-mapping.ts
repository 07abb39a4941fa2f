import { ServiceError } from "../errors";

/**
 * The upstream name of a requested model under a channel's model_mapping: chains are followed
 * (a→b→c), mapping a name to itself is a no-op, a cycle is refused.
 */
export function mapModel(mapping: Record<string, string>, requested: string): string {
  if (!Object.hasOwn(mapping, requested)) return requested;
  let current = requested;
  const seen = new Set([current]);
  for (;;) {
    const next = Object.hasOwn(mapping, current) ? mapping[current] : undefined;
    if (!next || next === current) return current;
    if (seen.has(next)) throw new ServiceError(`the model mapping of this channel contains a cycle at ${next}`, 500);
    seen.add(next);
    current = next;
  }
}

export function parseMapping(text: string): Record<string, string> {
  if (!text.trim()) return {};
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}
