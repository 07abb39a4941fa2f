import type { Usage } from "../../service/billing/quota";
import type { EndpointKind } from "../../service/relay/endpoints";
import type { ChunkReader } from "../upstream/reply";

export type StreamEnd = "done" | "eof" | "timeout" | "client_gone" | "error";

/** What came through a relayed stream: the upstream's usage if it sent one, the text it generated, timings. */
export interface StreamOutcome {
  usage?: Usage;
  text: string;
  /** ms from the start of the call to the first event, -1 when none came. */
  firstResponseMs: number;
  end: StreamEnd;
}

export interface StreamOptions {
  kind: EndpointKind;
  upstream: ChunkReader;
  /** The client asked for usage (stream_options.include_usage); otherwise the usage-only chunk is dropped. */
  clientWantsUsage: boolean;
  startedAt: number;
  /** Longest quiet gap between upstream chunks. */
  idleTimeoutMs: number;
  /** After the client leaves, how long to keep reading for the usage report. */
  drainMs: number;
  pingSeconds: number;
  /** Builds a usage-only chunk when the client wanted usage and the upstream sent none. */
  synthesizeUsage(outcome: StreamOutcome): Usage;
  /** Called exactly once, when the stream is over for both sides. */
  onEnd(outcome: StreamOutcome): void;
  /** After `onEnd`: settles when its charge is on disk (the last bytes wait for it); undefined when it is. */
  durable?(): Promise<void> | undefined;
}
