import { hostname } from "node:os";
import type { Exec } from "../../db/exec";
import {
  giveBackLease,
  reclaimLeases,
  renewLeases,
  spendLeases,
  takeLease,
  type LeaseSide,
} from "../../db/queries/leases";
import type { ChangeBus } from "../changes";
import { randomAlphanumeric } from "../crypto";
import type { Account } from "./accounts";
import { InsufficientQuotaError } from "./insufficient";
import type { Side } from "./remote-charges";
import type { SerialQueue } from "./serial";
import { thisWriter, writerLabel } from "./writer";

/** How often leases are renewed and idle ones given back. */
const LEASE_TICK_MS = 1_000;
/** A lease no call has held from, with nothing in flight or unwritten, for this long goes back to the database. */
const LEASE_IDLE_MS = 2_000;
/** A lease its holder has not renewed for this long is a dead holder's: any instance gives it back. */
export const LEASE_TTL_MS = 30_000;
/** A new lease takes this share of what is unleased (at least what the call needs). */
const LEASE_SHARE = 4;

/** After asking other instances for their spare lease, the waits before each new try (their answers take a few ms). */
const WANTED_WAITS_MS = [20, 60, 150];

/**
 * What the leases of a process start with: the host and the process as its billing journals name it (`writerLabel`),
 * so the recovery of a dead process's journal on this host also gives its leases back. No `%` or `_` in it: it is
 * matched with LIKE.
 */
export const leaseHolder = (writer: string) =>
  `${hostname()
    .replace(/[^A-Za-z0-9.-]/g, "-")
    .slice(0, 32)}/${writer}/`;

const SIDES: Record<Side, LeaseSide> = { users: 0, tokens: 1 };

/**
 * An instance's leases on balances: the money it may hold for calls without asking anyone. A reservation must fit
 * in the account's lease as well as in its balance; when it does not, the instance takes more from the database
 * with one conditional UPDATE (the database keeps, per account, the sum of every instance's leases next to the
 * balance, and grants only what no lease holds), so two instances can never hold the same money. Settled charges
 * leave the lease as the billing flush writes them; a lease idle for LEASE_IDLE_MS goes back; a dead instance's
 * goes back once its journal is replayed, or after LEASE_TTL_MS without renewal; an instance whose lease falls
 * short while the rest of the balance is leased asks the others (through Redis) to give back what theirs do not
 * hold for calls. Everything touching the database runs in the book's serial queue, between flushes, so
 * `Account.lease` always equals the holder's row.
 */
export class BalanceLeases {
  /** This book's holder name (a process may run several books, each with its own leases). */
  readonly holder = leaseHolder(writerLabel(thisWriter)) + randomAlphanumeric(8);
  private readonly timer: Timer;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Exec,
    private readonly serial: SerialQueue,
    private readonly changes: ChangeBus,
    private readonly accounts: Record<Side, Map<number, Account>>,
  ) {
    this.timer = setInterval(() => void this.tick().catch(() => {}), LEASE_TICK_MS);
    this.timer.unref();
    this.unsubscribe = changes.onLeaseWanted((side, id) => void this.giveBackSpare(side, id).catch(() => {}));
  }

  /** What the lease still lets this instance hold: the lease less what its calls hold or settled unwritten. */
  static spare(account: Account): number {
    return account.lease + account.pending - account.reserved;
  }

  /**
   * Takes more lease on an account so that `amount` fits; when the unleased balance cannot cover it, asks the other
   * instances for the spare of their leases and tries again while they answer. Throws InsufficientQuotaError when
   * the balance still cannot.
   */
  async extend(side: Side, id: number, account: Account, amount: number): Promise<void> {
    if (await this.take(side, id, account, amount)) return;
    if (!this.changes.announceLeaseWanted(side, id)) this.refuse(side, account, amount);
    for (const wait of WANTED_WAITS_MS) {
      await Bun.sleep(wait);
      if (await this.take(side, id, account, amount)) return;
    }
    this.refuse(side, account, amount);
  }

  /** Adds to the lease what `amount` lacks, in the serial queue; answers whether it fits now. */
  private take(side: Side, id: number, account: Account, amount: number): Promise<boolean> {
    return this.serial.run(async () => {
      const need = amount - BalanceLeases.spare(account);
      if (need <= 0) return true;
      const want = (unleased: number) => Math.ceil(unleased / LEASE_SHARE);
      const now = Date.now();
      account.lease += await takeLease(this.db, this.holder, SIDES[side], id, need, want, now);
      account.quietSince = now;
      return BalanceLeases.spare(account) >= amount;
    });
  }

  private refuse(side: Side, account: Account, amount: number): never {
    throw new InsufficientQuotaError(side === "users" ? "user" : "token", BalanceLeases.spare(account), amount);
  }

  /**
   * In a flush's transaction: what of each account's written charges its lease covered (the rest was spent beyond
   * the lease: the calls that cost more than they held). Answers a function that applies it once committed.
   */
  async spend(tx: Exec, charged: Record<Side, Map<number, number>>): Promise<() => void> {
    const covered: [Account, number][] = [];
    for (const side of ["users", "tokens"] as const) {
      const spent = new Map<number, number>();
      for (const [id, amount] of charged[side]) {
        const account = this.accounts[side].get(id);
        const part = account ? Math.min(amount, account.lease) : 0;
        if (part <= 0) continue;
        spent.set(id, part);
        covered.push([account!, part]);
      }
      if (spent.size > 0) await spendLeases(tx, this.holder, spent, SIDES[side]);
    }
    return () => {
      for (const [account, part] of covered) account.lease -= part;
    };
  }

  /** Renews this instance's leases, gives idle ones back, and reclaims dead holders' leases. */
  tick(now = Date.now()): Promise<void> {
    return this.serial.run(async () => {
      const held = new Set((await renewLeases(this.db, this.holder, now)).map((l) => `${l.side}:${l.id}`));
      for (const side of ["users", "tokens"] as const) {
        for (const [id, account] of this.accounts[side]) {
          if (account.lease === 0) continue;
          if (!held.has(`${SIDES[side]}:${id}`)) account.lease = 0;
          else if (account.holds !== account.seenHolds) {
            account.seenHolds = account.holds;
            account.quietSince = now;
          } else if (account.reserved === 0 && account.pending === 0 && now - account.quietSince >= LEASE_IDLE_MS) {
            await this.giveBack(side, id, account, account.lease);
          }
        }
      }
      await reclaimLeases(this.db, now - LEASE_TTL_MS);
    });
  }

  /**
   * The lease shrinks here before the database is told: calls hold without waiting (`reserveAtOnce`), so one that
   * came while the database answered would otherwise hold money already handed back to the other instances.
   */
  private async giveBack(side: Side, id: number, account: Account, amount: number): Promise<void> {
    account.lease -= amount;
    try {
      await giveBackLease(this.db, this.holder, SIDES[side], id, amount);
    } catch (error) {
      account.lease += amount;
      throw error;
    }
  }

  /** Another instance's lease fell short: gives back what this one's lease does not hold for calls in flight. */
  private giveBackSpare(side: Side, id: number): Promise<void> {
    return this.serial.run(async () => {
      const account = this.accounts[side].get(id);
      const spare = account ? Math.min(account.lease, BalanceLeases.spare(account)) : 0;
      if (spare > 0) await this.giveBack(side, id, account!, spare);
    });
  }

  /** Stops renewing; gives every lease back when `giveBack` (after the last flush of a graceful stop). */
  async close(giveBack: boolean): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe();
    if (!giveBack) return;
    await this.serial.run(async () => {
      for (const side of ["users", "tokens"] as const) {
        for (const [id, account] of this.accounts[side]) {
          if (account.lease > 0) await this.giveBack(side, id, account, account.lease);
        }
      }
    });
  }
}
