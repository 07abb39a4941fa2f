/**
 * The prompt counter's thread (see counting-thread.ts): counts the texts it is sent with their encoding, within the
 * sliced budget (exact up to a million characters, sampled beyond). Counts run side by side, a slice of each in
 * turn, so a huge prompt does not hold back the small ones sent after it. A count the server's thread waits for
 * (`answer`) is made at once, within the budget of a count on the caller's turn, and written to the shared answer.
 * The encodings and the counting's garbage live in this thread's heap, collected here, never in the server's.
 */
import { AnswerCell, type CountReply, type CountRequest } from "./count-protocol";
import { encodingNamed } from "./encodings";
import { countInSlices, countNow } from "./token-count";

declare const self: Worker;

function answerNow({ encoding, texts }: CountRequest, answer: Int32Array): void {
  let state: number = AnswerCell.FAILED;
  try {
    answer[AnswerCell.tokens] = countNow(encodingNamed(encoding), texts);
    state = AnswerCell.ANSWERED;
  } catch {
    // FAILED: the waiting thread counts it itself.
  }
  Atomics.store(answer, AnswerCell.state, state);
  Atomics.notify(answer, AnswerCell.state);
}

self.onmessage = async ({ data }: MessageEvent<CountRequest>) => {
  if (data.answer) return answerNow(data, new Int32Array(data.answer));
  let reply: CountReply;
  try {
    reply = { id: data.id, tokens: await countInSlices(encodingNamed(data.encoding), data.texts) };
  } catch (error) {
    reply = { id: data.id, failed: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
