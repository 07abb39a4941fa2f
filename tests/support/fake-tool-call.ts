/**
 * The scripted tool round trip of the fake upstreams (FakeBehavior.toolCall), dialect-neutral: whether
 * this request is the one that must ask for the tool, and the call's ids and argument pieces.
 */
import type { FakeToolCall } from "./fake-upstream";

/** The call to make now: the request offers the tool and has no tool result in it yet. */
export function dueToolCall(
  script: FakeToolCall | undefined,
  offered: string[],
  hasResult: boolean,
): FakeToolCall | undefined {
  return script && !hasResult && offered.includes(script.name) ? script : undefined;
}

/** The arguments as JSON, cut in two so that streams carry more than one argument delta. */
export function argumentPieces(call: FakeToolCall): [string, string] {
  const json = JSON.stringify(call.arguments);
  const cut = Math.floor(json.length / 2);
  return [json.slice(0, cut), json.slice(cut)];
}

export const toolCallId = (seq: number) => `call_fake_${seq}`;
