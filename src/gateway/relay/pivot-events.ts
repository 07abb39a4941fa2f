import type { Usage } from "../../service/billing/quota";
import { type EndpointKind, streamedUsage } from "../../service/relay/endpoints";
import type { PivotEvent } from "./dialects/types";

export type { PivotEvent };

const DONE_EVENT = "data: [DONE]\n\n";

/** The pivot's text for its events: the bytes the provider's writer writes for them. */
export function pivotText(events: readonly PivotEvent[]): Buffer {
  let out = "";
  for (const event of events) out += event === "[DONE]" ? DONE_EVENT : `data: ${JSON.stringify(event)}\n\n`;
  return Buffer.from(out);
}

/**
 * The usage of a whole pivot stream held as events, when it has the shape `relayWholeStream` takes as bytes: one
 * event reporting usage, [DONE] last and only there. Undefined otherwise: its text is then relayed as bytes.
 */
export function wholePivotUsage(events: readonly PivotEvent[], kind: EndpointKind): Usage | undefined {
  const last = events.length - 1;
  if (events[last] !== "[DONE]") return undefined;
  let reporting: Record<string, any> | undefined;
  for (let i = 0; i < last; i++) {
    const event = events[i]!;
    if (event === "[DONE]") return undefined;
    if (typeof event.usage !== "object" || event.usage === null) continue;
    if (reporting) return undefined;
    reporting = event;
  }
  return reporting && streamedUsage(kind, reporting);
}
