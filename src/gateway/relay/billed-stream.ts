import type { BalanceBook } from "../../service/billing/book";
import type { CallCharge } from "../../service/billing/call-charge";
import type { Usage } from "../../service/billing/quota";
import type { StreamOptions, StreamOutcome } from "./stream-outcome";

/** A stream's options but for its billing, which the charge gives. */
export type StreamShape = Omit<StreamOptions, "synthesizeUsage" | "onEnd" | "durable">;

/**
 * A relayed stream's options, billed to its charge. The billing is this object's methods rather than closures: a
 * stream keeps its options while it is open, and three closures with their scope cost thousands of open streams
 * ~150 bytes each. Made outside the call's scope, it holds what the bill reads and not the call's state.
 */
export class BilledStream implements StreamOptions {
  readonly kind: StreamOptions["kind"];
  readonly upstream: StreamOptions["upstream"];
  readonly clientWantsUsage: boolean;
  readonly startedAt: number;
  readonly idleTimeoutMs: number;
  readonly drainMs: number;
  readonly pingSeconds: number;

  constructor(
    shape: StreamShape,
    private readonly charge: CallCharge,
    private readonly book: BalanceBook,
  ) {
    this.kind = shape.kind;
    this.upstream = shape.upstream;
    this.clientWantsUsage = shape.clientWantsUsage;
    this.startedAt = shape.startedAt;
    this.idleTimeoutMs = shape.idleTimeoutMs;
    this.drainMs = shape.drainMs;
    this.pingSeconds = shape.pingSeconds;
  }

  synthesizeUsage(outcome: StreamOutcome): Usage {
    return this.charge.countedUsage(outcome.text);
  }

  onEnd(outcome: StreamOutcome): void {
    this.charge.settle(outcome.usage, outcome.text, outcome.firstResponseMs, outcome.end);
  }

  durable(): Promise<void> | undefined {
    return this.book.durable();
  }
}
