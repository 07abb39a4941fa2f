import { ArmedTimer } from "../../shared/armed-timer";
import type { Side } from "./remote-charges";

/**
 * Balances to re-read because another instance wrote charges to them, gathered for `windowMs` and handed over
 * together: one re-read per balance per window, however many instances flush meanwhile. Until then the balance
 * still counts those charges as the other instance's unwritten ones, so waiting only ever shows it lower.
 */
export class PendingRefreshes {
  private wanted: Record<Side, Set<number>> = { users: new Set(), tokens: new Set() };
  private readonly timer = new ArmedTimer(() => {
    const wanted = this.wanted;
    this.wanted = { users: new Set(), tokens: new Set() };
    void this.run(wanted).catch(() => {});
  });

  constructor(
    private readonly run: (wanted: Record<Side, Set<number>>) => Promise<void>,
    private readonly windowMs: number,
  ) {}

  ask(side: Side, ids: Iterable<number>): void {
    for (const id of ids) this.wanted[side].add(id);
    if (this.wanted.users.size + this.wanted.tokens.size > 0) this.timer.arm(this.windowMs);
  }

  close(): void {
    this.timer.stop();
  }
}
