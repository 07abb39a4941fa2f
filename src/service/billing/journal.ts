import {
  accessSync,
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { randomAlphanumeric } from "../crypto";
import { LOG_COLUMNS } from "../../db/queries/charges";
import type { NewLogRow } from "../../db/schema";
import type { Charge } from "./charges";
import { TurnBatch } from "../../shared/turn-batch";
import { isRunning, thisWriter, writerLabel, writerOfLabel } from "./writer";

const SUFFIX = ".jnl";

/**
 * A charge as one line: a JSON array, the charge's numbers then its log row's values (none without a row), in
 * the order of LOG_COLUMNS; each journal's first line records that order, so a later version that changes the
 * columns still reads older journals by their own.
 */
function chargeLine(c: Charge): string {
  const values: unknown[] = [c.userId, c.tokenId, c.tokenUnlimited ? 1 : 0, c.channelId, c.quota, c.debit ? 1 : 0];
  const log = c.log;
  if (log) for (const field of LOG_COLUMNS) values.push(log[field]);
  return JSON.stringify(values);
}

/** A journal line back as a charge: the array form, or the object form journals of earlier versions hold. */
function chargeOfLine(line: string, logFields: readonly string[]): Charge {
  const parsed = JSON.parse(line) as unknown;
  if (!Array.isArray(parsed)) return parsed as Charge;
  const [userId, tokenId, tokenUnlimited, channelId, quota, debit] = parsed as number[];
  let log: NewLogRow | null = null;
  if (parsed.length > 6) {
    const row: Record<string, unknown> = {};
    logFields.forEach((field, i) => {
      if (parsed[6 + i] !== undefined && parsed[6 + i] !== null) row[field] = parsed[6 + i];
    });
    log = row as unknown as NewLogRow;
  }
  return {
    userId: userId!,
    tokenId: tokenId!,
    tokenUnlimited: tokenUnlimited === 1,
    channelId: channelId!,
    quota: quota!,
    debit: debit === 1,
    log,
  };
}

interface Durable {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function durablePromise(): Durable {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => {}); // nobody may be waiting; the failure is reported to those who are
  return { promise, resolve, reject };
}

/** Where a charge's line ends in its journal: known once the line is written (see `ChargeJournal.sync`). */
export interface LineEnd {
  journal: ChargeJournal;
  bytes: number;
}

/** Journal files this process writes or is recovering (another book in the same process must not take them). */
const live = new Set<string>();
/** Orphaned journals of another database: read once, then passed over by the recoveries that follow. */
const foreign = new Set<string>();

/**
 * An append-only file of the charges a balance book has settled but not yet written to the database: each
 * charge is written to the file as it is settled, before its reply's last byte goes out, so a process that
 * dies (killed, out of memory) loses no charge its client was answered for (one small write per call; the
 * kernel keeps it when the process dies, a power loss is not covered). The book records, in the transaction
 * that writes a batch, how far into the file the database has it; what lies after that point is replayed by
 * `BalanceBook.recover`. The first line names the database the charges belong to. Files are named
 * `<writer>-<random>.jnl`, the writer as `writerLabel` spells it.
 */
export class ChargeJournal {
  readonly name: string;
  private readonly path: string;
  private fd: number;
  /** Bytes written so far, header included: the offset a flush records. */
  bytes = 0;

  constructor(dir: string, databaseId: string) {
    mkdirSync(dir, { recursive: true });
    this.name = `${writerLabel(thisWriter)}-${randomAlphanumeric(10)}${SUFFIX}`;
    this.path = join(dir, this.name);
    this.fd = openSync(this.path, "a", 0o600);
    live.add(this.path);
    this.bytes += writeSync(this.fd, `${JSON.stringify({ database: databaseId, log_fields: LOG_COLUMNS })}\n`);
  }

  /** Lines appended this turn of the event loop, written together at its end (or by `sync`). */
  private pending = "";
  /** The ends of the pending lines, each with its line's length in bytes: set by the write. */
  private pendingEnds: { end: LineEnd; length: number }[] = [];
  private written: Durable | undefined;
  /** When the first of the pending lines was appended. */
  private readonly pendingBatch = new TurnBatch();

  /**
   * Queues the charge for the write at the end of this turn: one write for the many calls a busy turn settles (a
   * write per call cost ~8 µs each at saturation). `durable()` tells when it is on disk; replies wait for it.
   * With thousands of streams open a turn lasts tens to hundreds of milliseconds, and every reply ending in it
   * would wait for its end: lines pending past a TurnBatch's wait are written with the next append.
   * Answers where the line will end in the file (undefined for a closed journal).
   */
  append(charge: Charge): LineEnd | undefined {
    if (this.fd < 0) return undefined;
    const line = `${chargeLine(charge)}\n`;
    this.pending += line;
    const end: LineEnd = { journal: this, bytes: this.bytes };
    this.pendingEnds.push({ end, length: Buffer.byteLength(line) });
    if (this.written) {
      if (this.pendingBatch.overdue) this.sync();
      return end;
    }
    this.written = durablePromise();
    this.pendingBatch.open();
    setImmediate(() => this.sync());
    return end;
  }

  /**
   * Writes what was appended and not yet written; a write that fails fails the replies waiting for it. Each line's
   * end is set to where it ends in the file (a line the write did not take ends where the file does).
   */
  sync(): void {
    const written = this.written;
    if (!written) return;
    const text = this.pending;
    const ends = this.pendingEnds;
    this.pending = "";
    this.pendingEnds = [];
    this.written = undefined;
    const from = this.bytes;
    try {
      if (this.fd >= 0) this.bytes += writeSync(this.fd, text);
      written.resolve();
    } catch (error) {
      written.reject(error as Error);
    }
    let at = from;
    for (const { end, length } of ends) {
      at += length;
      end.bytes = Math.min(at, this.bytes);
    }
  }

  /** Settles when everything appended so far is written; undefined when it already is. */
  durable(): Promise<void> | undefined {
    return this.written?.promise;
  }

  /** Closes the file; removes it when the database holds all of it. */
  close(remove: boolean): void {
    if (this.fd < 0) return;
    this.sync();
    closeSync(this.fd);
    this.fd = -1;
    live.delete(this.path);
    if (remove) unlinkSync(this.path);
  }
}

/** Where a balance book journals settled charges until they are written: a folder, and the database they belong to. */
export interface JournalPlace {
  dir: string;
  databaseId: string;
  /** How often the folder is looked at for journals of processes that died while this one runs (default 10 s). */
  recoverEveryMs?: number;
}

/** Creates the journal folder, or stops the start with a clear message: billing cannot run without it. */
export function ensureJournalDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unusable";
    throw new Error(
      `the billing journal folder ${dir} cannot be written (${reason}); set BILLING_JOURNAL_DIR to a writable folder`,
    );
  }
}

/** The database key under which a flush records how far into journal `name` the database has it. */
export const journalKey = (name: string) => `billing_journal:${name}`;

export interface OrphanJournal {
  name: string;
  /** The process that wrote it, as `writerLabel` spells it. */
  writer: string;
  /** Bytes in the file: once its charges are written, the offset to record, so a replay of it adds nothing. */
  size: number;
  /** The charges after `offset`, in the order they were settled (a torn last line is left out). */
  charges(offset: number): Charge[];
  /** Removes the file once its charges are in the database. */
  remove(): void;
  /** Puts the file back for a later attempt (recovery failed). */
  release(): void;
}

/** `<writer>-<random>.jnl`, or the same claimed by a recovering process: `….jnl.recovering-<writer>`. */
const JOURNAL_FILE = /^(\d+(?:\.\d+)?)-[0-9A-Za-z]+\.jnl(?:\.recovering-(\d+(?:\.\d+)?))?$/;

/**
 * Journals in `dir` left by processes that are gone, for the database `databaseId`: files of dead writers, and
 * files whose recovery a dead process had claimed but not finished. Each is claimed by renaming it first, so
 * two processes starting together never replay the same file.
 */
export function orphanJournals(dir: string, databaseId: string): OrphanJournal[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  const orphans: OrphanJournal[] = [];
  for (const file of files) {
    const match = JOURNAL_FILE.exec(file);
    if (!match) continue;
    const name = file.slice(0, file.indexOf(SUFFIX) + SUFFIX.length);
    const path = join(dir, name);
    if (live.has(path) || foreign.has(path) || isRunning(writerOfLabel(match[2] ?? match[1]!))) continue;
    const claimed = `${path}.recovering-${writerLabel(thisWriter)}`;
    if (live.has(claimed)) continue;
    try {
      renameSync(join(dir, file), claimed);
    } catch {
      continue;
    }
    live.add(claimed);
    const bytes = readFileSync(claimed);
    const headerEnd = bytes.indexOf(10);
    let header: { database?: string; log_fields?: string[] } = {};
    try {
      header = JSON.parse(bytes.subarray(0, headerEnd).toString());
    } catch {}
    if (header.database !== databaseId) {
      renameSync(claimed, path);
      live.delete(claimed);
      foreign.add(path);
      continue;
    }
    orphans.push({
      name,
      writer: match[1]!,
      size: bytes.length,
      charges(offset) {
        const lines = bytes
          .subarray(Math.max(offset, headerEnd + 1))
          .toString()
          .split("\n");
        const charges: Charge[] = [];
        for (const line of lines) {
          if (!line) continue;
          try {
            charges.push(chargeOfLine(line, header.log_fields ?? LOG_COLUMNS));
          } catch {}
        }
        return charges;
      },
      remove: () => {
        unlinkSync(claimed);
        live.delete(claimed);
      },
      release: () => {
        renameSync(claimed, path);
        live.delete(claimed);
      },
    });
  }
  return orphans;
}
