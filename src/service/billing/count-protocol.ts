/** The messages between the server's thread and the counting thread (counting-thread.ts, token-worker.ts). */
import type { EncodingName } from "./encodings";

/** One count asked for: `id` comes back with its answer, or the answer is written to `answer` (see AnswerCell). */
export interface CountRequest {
  id: number;
  encoding: EncodingName;
  texts: string[];
  answer?: SharedArrayBuffer;
}

/** The tokens counted, or why they could not be. */
export type CountReply = { id: number; tokens: number } | { id: number; failed: string };

/** A shared answer's cells: its state (0 while counting, then ANSWERED or FAILED) and the tokens. */
export const AnswerCell = { state: 0, tokens: 1, ANSWERED: 1, FAILED: 2 } as const;
