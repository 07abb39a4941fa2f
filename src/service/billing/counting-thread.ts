import { encodingNamed, type EncodingName } from "./encodings";
import { countInSlices, countNow } from "./token-count";
import { AnswerCell, type CountReply, type CountRequest } from "./count-protocol";

/** Bun's Worker, which can stop keeping the process alive. */
type BunWorker = Worker & { ref(): void; unref(): void };

interface Waiting {
  encoding: EncodingName;
  texts: string[];
  resolve(tokens: number): void;
  reject(error: unknown): void;
}

/**
 * The counting thread's script: beside this module when run from source; in the executable, where build/binary.ts
 * embeds it as an entry of its own (named by its path under src/, the entries' common folder).
 */
export const TOKEN_WORKER_URL = import.meta.url.startsWith("file:///$bunfs/")
  ? new URL("file:///$bunfs/root/service/billing/token-worker.ts")
  : new URL("./token-worker.ts", import.meta.url);

/**
 * How long the server's thread waits for a count it cannot go on without (see `countWaiting`): the thread's first
 * count loads its encoding (~0.2–0.5 s), later ones take a few milliseconds.
 */
export const WAIT_FOR_COUNT_MS = 3000;

/**
 * Counts prompts on a thread of their own (token-worker.ts), made on the first count. Counting a 32 KiB prompt on
 * the server's thread cost ~0.7 ms and ~700 KB of garbage, and a loaded encoding put 20–30 MB of live cells in the
 * server's heap, which every full collection then marked while every open stream waited; on its own thread
 * neither touches the server's heap or its event loop. A thread that cannot start or fails hands its counts
 * back to the server's thread, counted in slices as before.
 */
export class CountingThread {
  private worker: BunWorker | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private lastId = 0;
  /** The thread never answered before it failed: counts stay on the server's thread from then on. */
  private unavailable = false;
  private answered = false;

  constructor(
    private readonly workerUrl = TOKEN_WORKER_URL,
    private readonly waitForCountMs = WAIT_FOR_COUNT_MS,
  ) {}

  count(encoding: EncodingName, texts: string[]): Promise<number> {
    const worker = this.started();
    if (!worker) return countInSlices(encodingNamed(encoding), texts);
    const id = ++this.lastId;
    return new Promise<number>((resolve, reject) => {
      this.waiting.set(id, { encoding, texts, resolve, reject });
      // Kept alive only while a count is awaited (a server's own sockets keep it alive the rest of the time).
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, encoding, texts } satisfies CountRequest);
    });
  }

  /**
   * The same count within the budget of a count on the caller's turn, for a caller that cannot await it (a reply
   * without usage, billed as its stream ends): the server's thread waits for the counting thread's answer, so the
   * encodings still never enter its heap. A thread that does not answer within WAIT_FOR_COUNT_MS, or cannot count,
   * leaves the count to the server's thread.
   */
  countWaiting(encoding: EncodingName, texts: string[]): number {
    const worker = this.started();
    if (worker) {
      const answer = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
      worker.postMessage({ id: 0, encoding, texts, answer: answer.buffer as SharedArrayBuffer } satisfies CountRequest);
      Atomics.wait(answer, AnswerCell.state, 0, this.waitForCountMs);
      const state = Atomics.load(answer, AnswerCell.state);
      if (state === AnswerCell.ANSWERED) {
        this.answered = true;
        return answer[AnswerCell.tokens]!;
      }
      // A thread that has answered before is only busy: this count is made here, and the thread kept.
      if (state === 0 && !this.answered) this.fail(`no answer within ${this.waitForCountMs} ms`);
    }
    return countNow(encodingNamed(encoding), texts);
  }

  private started(): BunWorker | undefined {
    if (this.worker || this.unavailable) return this.worker;
    try {
      const worker = new Worker(this.workerUrl) as BunWorker;
      worker.unref();
      worker.onmessage = ({ data }: MessageEvent<CountReply>) => this.reply(data);
      worker.onerror = (event) => this.fail(event.message);
      this.worker = worker;
    } catch (error) {
      this.fail(error instanceof Error ? error.message : String(error));
    }
    return this.worker;
  }

  private reply(reply: CountReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.answered = true;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker?.unref();
    if ("tokens" in reply) waiting.resolve(reply.tokens);
    else onServerThread(waiting);
  }

  private fail(reason: string): void {
    if (!this.answered) this.unavailable = true;
    console.error(`[tokens] the counting thread failed (${reason}); its counts are made on the server's thread`);
    this.worker?.terminate();
    this.worker = undefined;
    const left = [...this.waiting.values()];
    this.waiting.clear();
    for (const waiting of left) onServerThread(waiting);
  }
}

function onServerThread({ encoding, texts, resolve, reject }: Waiting): void {
  try {
    countInSlices(encodingNamed(encoding), texts).then(resolve, reject);
  } catch (error) {
    reject(error);
  }
}
