import { streamedText, type EndpointKind } from "../../service/relay/endpoints";

/**
 * Raw event payloads kept for a possible count, in characters; past it they are reduced to their text. Small: a
 * chat chunk's payload is ~40 times its text, and thousands of streams are open at once (at 256 KiB, a stream of
 * 100 chunks held ~45 KiB of payloads until its usage came at the end). Each payload is parsed at most once
 * whatever the budget; a stream of a few chunks never is.
 */
const PAYLOAD_BUDGET = 512;

/**
 * What a relayed stream generated, kept in case the upstream never reports usage and the gateway must count
 * it: the events' payloads as they came (parsed only if needed), reduced to their text past PAYLOAD_BUDGET so a
 * long stream keeps its text rather than its events.
 */
export class StreamedText {
  private payloads: string[] = [];
  private payloadChars = 0;
  private earlier = "";

  constructor(private readonly kind: EndpointKind) {}

  keep(data: string): void {
    this.payloads.push(data);
    this.payloadChars += data.length;
    if (this.payloadChars <= PAYLOAD_BUDGET) return;
    this.earlier = this.text;
    this.payloads = [];
    this.payloadChars = 0;
  }

  /** Drops everything kept (the upstream reported usage: no count is needed). */
  forget(): void {
    this.payloads = [];
    this.payloadChars = 0;
    this.earlier = "";
  }

  get text(): string {
    return this.earlier + this.payloads.map((data) => textOf(this.kind, data)).join("");
  }
}

function textOf(kind: EndpointKind, data: string): string {
  try {
    return streamedText(kind, JSON.parse(data));
  } catch {
    return "";
  }
}
