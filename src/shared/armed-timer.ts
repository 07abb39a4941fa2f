/**
 * A timer armed on demand for work gathered until it fires (a flush, a batch of re-reads): arming it while it is
 * armed changes nothing, so nothing wakes while nothing waits; once stopped it is not armed again. It does not keep
 * the process alive.
 */
export class ArmedTimer {
  private timer: Timer | undefined;
  private stopped = false;

  constructor(private readonly fire: () => void) {}

  arm(ms: number): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.fire();
      },
      Math.max(0, ms),
    );
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
