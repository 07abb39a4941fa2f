import { inTransaction, type Exec } from "../../db/exec";
import { writeChargeTotals } from "../../db/queries/charges";
import { readOne, removeKey, upsert } from "../../db/queries/key-value";
import { dropLeasesOf } from "../../db/queries/leases";
import type { ChangeBus } from "../changes";
import { totalCharges } from "./charges";
import { ensureJournalDir, journalKey, orphanJournals, type JournalPlace } from "./journal";
import { leaseHolder } from "./leases";
import type { SerialQueue } from "./serial";

/**
 * Writes the charges of journals left by processes that died before writing them (the part after what the
 * database records), each journal in one transaction, in the book's serial queue, that also records the whole
 * file as written (so a crash before the file is removed cannot replay it twice); then the file and its record
 * go. Answers how many charges it wrote.
 */
export async function recoverJournals(
  db: Exec,
  serial: SerialQueue,
  changes: ChangeBus,
  place: JournalPlace,
): Promise<number> {
  ensureJournalDir(place.dir);
  let recovered = 0;
  for (const orphan of orphanJournals(place.dir, place.databaseId)) {
    const key = journalKey(orphan.name);
    try {
      const charges = orphan.charges(Number((await readOne(db, "internals", key)) ?? 0));
      const totals = totalCharges(charges);
      await serial.run(async () => {
        await inTransaction(db, async (tx) => {
          await writeChargeTotals(tx, totals);
          await upsert(tx, "internals", key, String(orphan.size));
          // Its charges are in the balances now, so what it had leased is free again (without waiting LEASE_TTL_MS).
          await dropLeasesOf(tx, leaseHolder(orphan.writer));
        });
        // Balances held here (and in other instances) reload before they are spent against again.
        for (const id of totals.users.keys()) changes.emit("users", id);
        for (const id of totals.tokens.keys()) changes.emit("tokens", id);
      });
      orphan.remove();
      await removeKey(db, "internals", key).catch(() => {});
      recovered += charges.length;
    } catch (error) {
      orphan.release();
      console.error(
        `[billing] could not recover journal ${orphan.name}, will retry:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  if (recovered > 0)
    console.log(`[billing] wrote ${recovered} charges a process that died had settled but not yet written`);
  return recovered;
}
