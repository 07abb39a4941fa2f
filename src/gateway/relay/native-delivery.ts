import type { CallCharge } from "../../service/billing/call-charge";
import type { Usage } from "../../service/billing/quota";
import { reportedUsage } from "../../service/relay/endpoints";
import type { UpstreamReply } from "../upstream/reply";
import type { NativeStreamTally, PivotUsage } from "./dialects/types";
import type { InboundCall } from "./inbound-request";
import { JsonArraySplitter } from "./json-array-splitter";
import { eventData, SseSplitter } from "./sse";
import { raceTimer } from "./timed-read";
import type { StreamEnd } from "./stream";

const usageOf = (usage: PivotUsage | undefined): Usage | undefined =>
  usage ? reportedUsage("chat", { usage }) : undefined;

type Settle = (usage: Usage | undefined, text: string, firstResponseMs: number, end?: StreamEnd) => void;

const TIMEOUT: unique symbol = Symbol("timeout");
/** After the client left, how long the upstream is still read for its usage report. */
const DRAIN_MS = 60_000;

/** Splits a native stream's bytes into its events' payloads. */
interface EventFraming {
  push(bytes: Uint8Array): string[];
  rest(): string[];
}

/** Server-sent events: each event's data. */
function sseFraming(): EventFraming {
  const splitter = new SseSplitter();
  const data = (events: string[]) => events.map(eventData).filter((d): d is string => d !== undefined);
  return { push: (bytes) => data(splitter.push(bytes)), rest: () => data(splitter.rest()) };
}

interface StreamTimes {
  startedAt: number;
  /** Longest quiet gap between upstream chunks. */
  idleTimeoutMs: number;
}

/**
 * A native event stream relayed byte for byte, its events read on the way for billing; settled once, when the
 * upstream ends, breaks or falls quiet past the idle timeout, or — after the client went away — when the
 * upstream, still read for up to DRAIN_MS, has reported its usage.
 */
function talliedStream(
  upstream: ReadableStream<Uint8Array>,
  framing: EventFraming,
  tally: NativeStreamTally,
  times: StreamTimes,
  settle: Settle,
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let pending: ReturnType<typeof reader.read> | undefined;
  let firstMs = -1;
  let settled = false;
  /** The client went away: the drain reads the upstream from then on (a read in flight included). */
  let gone = false;
  const end = (how: StreamEnd) => {
    if (settled) return;
    settled = true;
    reader.cancel().catch(() => {});
    settle(usageOf(tally.usage()), tally.text, firstMs, how);
  };
  const take = (events: string[]) => {
    for (const data of events) tally.event(data);
  };
  /** The next read, raced against `ms`; the read is kept for the next caller when the timer wins. */
  const next = async (ms: number) => {
    pending ??= reader.read();
    const result = await raceTimer(pending, ms, TIMEOUT);
    if (result !== TIMEOUT) pending = undefined;
    return result;
  };
  const drain = async () => {
    const deadline = Date.now() + DRAIN_MS;
    try {
      while (!tally.usage() && Date.now() < deadline) {
        const result = await next(deadline - Date.now());
        if (result === TIMEOUT || result.done) break;
        take(framing.push(result.value));
      }
    } catch {}
    end("client_gone");
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const result = await next(times.idleTimeoutMs > 0 ? times.idleTimeoutMs : 2 ** 31 - 1);
        if (settled || gone) return;
        if (result === TIMEOUT) {
          end("timeout");
          return controller.close();
        }
        if (result.done) {
          take(framing.rest());
          end(tally.usage() ? "done" : "eof");
          return controller.close();
        }
        if (firstMs < 0) firstMs = Date.now() - times.startedAt;
        take(framing.push(result.value));
        controller.enqueue(result.value);
      } catch {
        end("error");
        controller.error(new Error("the upstream stream broke off"));
      }
    },
    cancel() {
      gone = true;
      void drain();
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
  call: StreamTimes & { stream: boolean; requestId: string; onReplyId?: (id: string) => void },
  sseHeaders: Record<string, string>,
): Promise<Response> {
  const contentType = response.header("content-type") ?? "application/json";
  const settle: Settle = (usage, text, ms, end) => charge.settle(usage, text, ms, end);
  const { native } = inbound.dialect;
  const noteId = (id: string | undefined) => {
    if (id) call.onReplyId?.(id);
  };
  if (call.stream && contentType.includes("text/event-stream")) {
    const tally = native.streamTally();
    const body = talliedStream(response.stream(), sseFraming(), tally, call, (usage, text, ms, end) => {
      noteId(tally.replyId?.());
      settle(usage, text, ms, end);
    });
    return new Response(body, { status: 200, headers: sseHeaders });
  }
  if (call.stream && native.streamFraming?.(inbound.route) === "json-array" && contentType.includes("json")) {
    const body = talliedStream(response.stream(), new JsonArraySplitter(), native.streamTally(), call, settle);
    return new Response(body, { status: 200, headers: { ...sseHeaders, "content-type": contentType } });
  }
  const text = await response.text();
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {}
  const usage = usageOf(native.replyUsage(reply));
  noteId(native.replyId?.(reply));
  await charge.settleWhole(usage, usage ? "" : native.replyText(reply), Date.now() - call.startedAt);
  return new Response(text, {
    status: response.status,
    headers: { "content-type": contentType, "x-tollgate-request-id": call.requestId },
  });
}
