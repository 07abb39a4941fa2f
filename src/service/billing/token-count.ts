/**
 * Counting text with a BPE encoding in bounded work. The encoder's merge step costs the square of a
 * pre-token's length, so one long run of a character (60 KB took over a second, 3 MB minutes) would hold the
 * event loop; here the encoder only ever sees pieces of at most PIECE_CHARS characters, cut before a space
 * where the text has one (there the count is exact), else at the limit (a cut costs at most one token).
 * Beyond a budget of characters, evenly spread pieces are counted and the rest is scaled from them.
 */

/** The one method of an encoding this needs. */
export interface TokenEncoder {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

/** The longest piece handed to the encoder (its merge step is quadratic in a pre-token's length). */
export const PIECE_CHARS = 512;
/** Characters counted exactly on the caller's turn; longer texts are sampled. */
export const SYNC_BUDGET_CHARS = 32 * 1024;
/** Characters counted exactly when counting in slices off the caller's turn; longer texts are sampled. */
export const SLICED_BUDGET_CHARS = 1024 * 1024;
/** Longest stretch of counting before the sliced count lets other work run. */
const SLICE_MS = 4;

/** User text may contain "<|endoftext|>" and the like: count it as plain text, as the API does. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Where the piece starting at `start` ends: before the last space of its window when that space is in the window's second half, else at the window's end (never inside a surrogate pair). */
function pieceEnd(text: string, start: number): number {
  const limit = start + PIECE_CHARS;
  if (limit >= text.length) return text.length;
  const space = text.slice(start + (PIECE_CHARS >> 1), limit).lastIndexOf(" ");
  if (space > 0) return start + (PIECE_CHARS >> 1) + space;
  const last = text.charCodeAt(limit - 1);
  return last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
}

interface Progress {
  tokens: number;
  countedChars: number;
}

/**
 * Counts `texts` piece by piece, yielding after each counted piece so a caller can pause. With `budget` below
 * the texts' total length, pieces are taken at an even rate so that about `budget` characters are counted.
 */
function* countPieces(
  encoder: TokenEncoder,
  texts: readonly string[],
  totalChars: number,
  budget: number,
): Generator<void, Progress> {
  const rate = totalChars <= budget ? 1 : budget / totalChars;
  const progress: Progress = { tokens: 0, countedChars: 0 };
  let due = 0;
  for (const text of texts) {
    for (let start = 0; start < text.length; ) {
      const end = pieceEnd(text, start);
      const length = end - start;
      due += length * rate;
      if (due >= length) {
        due -= length;
        progress.tokens += encoder.countTokens(
          start === 0 && end === text.length ? text : text.slice(start, end),
          AS_PLAIN_TEXT,
        );
        progress.countedChars += length;
        yield;
      }
      start = end;
    }
  }
  return progress;
}

function scaled({ tokens, countedChars }: Progress, totalChars: number): number {
  return countedChars >= totalChars || countedChars === 0 ? tokens : Math.ceil((tokens * totalChars) / countedChars);
}

const lengthOf = (texts: readonly string[]) => texts.reduce((sum, text) => sum + text.length, 0);

/** Tokens of `texts` counted now, in work linear in their length and bounded by `budget` characters of BPE. */
export function countNow(encoder: TokenEncoder, texts: readonly string[], budget = SYNC_BUDGET_CHARS): number {
  const total = lengthOf(texts);
  if (total === 0) return 0;
  if (texts.length === 1 && total <= PIECE_CHARS) return encoder.countTokens(texts[0]!, AS_PLAIN_TEXT);
  const work = countPieces(encoder, texts, total, budget);
  for (;;) {
    const step = work.next();
    if (step.done) return scaled(step.value, total);
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Tokens of `texts`, counted in slices of a few milliseconds with other work let in between. */
export async function countInSlices(
  encoder: TokenEncoder,
  texts: readonly string[],
  budget = SLICED_BUDGET_CHARS,
): Promise<number> {
  const total = lengthOf(texts);
  const work = countPieces(encoder, texts, total, budget);
  let sliceStart = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return scaled(step.value, total);
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}
