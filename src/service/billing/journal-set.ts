import type { Exec } from "../../db/exec";
import { removeKey, upsert } from "../../db/queries/key-value";
import type { ChangeBus } from "../changes";
import type { Charge } from "./charges";
import { ChargeJournal, journalKey, type JournalPlace, type LineEnd } from "./journal";
import { recoverJournals } from "./recovery";
import type { SerialQueue } from "./serial";

/** How often the journal folder is looked at for journals of processes that died while this one runs. */
const RECOVER_EVERY_MS = 10_000;

/** A journal file grows to about this size, then the next charges go to a new one and it is removed once written. */
const JOURNAL_ROTATE_BYTES = 16 * 1024 * 1024;

/** How far into a journal a flush's transaction records the database has it. */
export interface JournalMark {
  journal: ChargeJournal;
  bytes: number;
}

/**
 * The journals a balance book writes (each settled charge appended at once, so a process that dies between
 * flushes loses nothing), and the recovery of those left by processes that died: at start and on a timer.
 */
export class JournalSet {
  /** Open journal files, the one written now last; earlier ones go once the database has all of them. */
  private readonly journals: ChargeJournal[] = [];
  private readonly recoverTimer: Timer;
  /** The recovery under way, so the timer's and a caller's never run together. */
  private recovering?: Promise<number>;

  constructor(
    private readonly db: Exec,
    private readonly serial: SerialQueue,
    private readonly changes: ChangeBus,
    private readonly place: JournalPlace,
  ) {
    this.recoverTimer = setInterval(
      () => void this.recover().catch(() => {}),
      place.recoverEveryMs ?? RECOVER_EVERY_MS,
    );
    this.recoverTimer.unref();
  }

  /** Bytes of the journal files this process has open (what a crash now would leave to replay, and more). */
  get bytes(): number {
    let total = 0;
    for (const journal of this.journals) total += journal.bytes;
    return total;
  }

  /**
   * Appends the charge to the current journal (opening the first one on need; written at the end of the turn);
   * answers where its line ends.
   */
  append(charge: Charge): LineEnd | undefined {
    if (this.journals.length === 0) this.journals.push(new ChargeJournal(this.place.dir, this.place.databaseId));
    return this.journals.at(-1)!.append(charge);
  }

  /**
   * How far each journal is written now: what a flush starting now will have in the database. Lines still
   * waiting for the end of the turn are written first, so no charge the flush holds lies beyond its mark.
   */
  marks(): JournalMark[] {
    for (const journal of this.journals) journal.sync();
    return this.journals.map((journal) => ({ journal, bytes: journal.bytes }));
  }

  /**
   * The marks of a flush that writes the charges up to the one whose line ends at `last` (charges are appended in
   * the order they are flushed): the journals before its one whole, its one up to that line, none after.
   */
  marksThrough(last: LineEnd): JournalMark[] {
    const marks = this.marks();
    const at = marks.findIndex((mark) => mark.journal === last.journal);
    if (at < 0) return marks;
    marks[at] = { journal: last.journal, bytes: last.bytes };
    return marks.slice(0, at + 1);
  }

  /** Settles when every charge appended so far is on disk; undefined when all are. */
  durable(): Promise<void> | undefined {
    return this.journals.at(-1)?.durable();
  }

  /** Records the marks in the flush's transaction. */
  async recordMarks(tx: Exec, marks: JournalMark[]): Promise<void> {
    for (const { journal, bytes } of marks) await upsert(tx, "internals", journalKey(journal.name), String(bytes));
  }

  /** After a flush: removes journal files the database now holds entirely (all but the current one); rotates a large current one. */
  async retire(marks: JournalMark[]): Promise<void> {
    const current = this.journals.at(-1);
    for (const { journal, bytes } of marks) {
      if (journal === current || journal.bytes !== bytes) continue;
      journal.close(true);
      this.journals.splice(this.journals.indexOf(journal), 1);
      await removeKey(this.db, "internals", journalKey(journal.name)).catch(() => {});
    }
    if (current && current.bytes > JOURNAL_ROTATE_BYTES)
      this.journals.push(new ChargeJournal(this.place.dir, this.place.databaseId));
  }

  /** Writes the charges of journals left by processes that died before writing them (see `recoverJournals`). */
  recover(): Promise<number> {
    this.recovering ??= recoverJournals(this.db, this.serial, this.changes, this.place).finally(
      () => (this.recovering = undefined),
    );
    return this.recovering;
  }

  /** Stops looking for dead processes' journals, once the recovery under way (if any) is over. */
  async stopRecovering(): Promise<void> {
    clearInterval(this.recoverTimer);
    await this.recovering?.catch(() => {});
  }

  /** Closes every journal; when the database has all their charges (`written`), removes them and their records. */
  async close(written: boolean): Promise<void> {
    for (const journal of this.journals.splice(0)) {
      journal.close(written);
      if (written) await removeKey(this.db, "internals", journalKey(journal.name)).catch(() => {});
    }
  }
}
