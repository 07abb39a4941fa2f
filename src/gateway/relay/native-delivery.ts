import type { CallCharge } from "../../service/billing/call-charge";
import type { Usage } from "../../service/billing/quota";
import { reportedUsage } from "../../service/relay/endpoints";
import type { UpstreamReply } from "../upstream/reply";
import type { NativeStreamTally, PivotUsage } from "./dialects/types";
import type { InboundCall } from "./inbound-request";
import { eventData, SseSplitter } from "./sse";
import type { StreamEnd } from "./stream";

const usageOf = (usage: PivotUsage | undefined): Usage | undefined =>
  usage ? reportedUsage("chat", { usage }) : undefined;

type Settle = (usage: Usage | undefined, text: string, firstResponseMs: number, end?: StreamEnd) => void;

/**
 * A native event stream relayed byte for byte, its events read on the way for billing; settled once, when the
 * upstream ends, breaks, or the client goes away.
 */
function talliedStream(
  upstream: ReadableStream<Uint8Array>,
  tally: NativeStreamTally,
  startedAt: number,
  settle: Settle,
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const splitter = new SseSplitter();
  let firstMs = -1;
  let settled = false;
  const end = (how: StreamEnd) => {
    if (settled) return;
    settled = true;
    settle(usageOf(tally.usage()), tally.text, firstMs, how);
  };
  const take = (events: string[]) => {
    for (const event of events) {
      const data = eventData(event);
      if (data !== undefined) tally.event(data);
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          take(splitter.rest());
          end(tally.usage() ? "done" : "eof");
          return controller.close();
        }
        if (firstMs < 0) firstMs = Date.now() - startedAt;
        take(splitter.push(value));
        controller.enqueue(value);
      } catch {
        end("error");
        controller.error(new Error("the upstream stream broke off"));
      }
    },
    cancel(reason) {
      end("client_gone");
      return reader.cancel(reason);
    },
  });
}

/**
 * The reply of a call passed through to a family that speaks the client's dialect: relayed untouched, billed
 * from the upstream's usage in that dialect (or counted from its text when it reported none).
 */
export async function deliverNative(
  response: UpstreamReply,
  inbound: InboundCall,
  charge: CallCharge,
  call: { stream: boolean; startedAt: number; requestId: string },
  sseHeaders: Record<string, string>,
): Promise<Response> {
  const contentType = response.header("content-type") ?? "application/json";
  const settle: Settle = (usage, text, ms, end) => charge.settle(usage, text, ms, end);
  const { native } = inbound.dialect;
  if (call.stream && contentType.includes("text/event-stream")) {
    const body = talliedStream(response.stream(), native.streamTally(), call.startedAt, settle);
    return new Response(body, { status: 200, headers: sseHeaders });
  }
  const text = await response.text();
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {}
  const usage = usageOf(native.replyUsage(reply));
  settle(usage, usage ? "" : native.replyText(reply), Date.now() - call.startedAt);
  return new Response(text, {
    status: response.status,
    headers: { "content-type": contentType, "x-tollgate-request-id": call.requestId },
  });
}
