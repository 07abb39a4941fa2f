/**
 * The prompt counter's thread (see counting-thread.ts): counts the texts it is sent with their encoding, within the
 * sliced budget (exact up to a million characters, sampled beyond). Counts run side by side, a slice of each in
 * turn, so a huge prompt does not hold back the small ones sent after it. The encodings and the counting's garbage
 * live in this thread's heap, collected here, never in the server's.
 */
import { encodingNamed, type EncodingName } from "./encodings";
import { countInSlices } from "./token-count";

/** One count asked for: `id` comes back with its answer. */
export interface CountRequest {
  id: number;
  encoding: EncodingName;
  texts: string[];
}

/** The tokens counted, or why they could not be. */
export type CountReply = { id: number; tokens: number } | { id: number; failed: string };

declare const self: Worker;

self.onmessage = async ({ data }: MessageEvent<CountRequest>) => {
  let reply: CountReply;
  try {
    reply = { id: data.id, tokens: await countInSlices(encodingNamed(data.encoding), data.texts) };
  } catch (error) {
    reply = { id: data.id, failed: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
