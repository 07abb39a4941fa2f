export interface Progress {
  /** `done` of `total` finished (total 0 or less: unknown, a bar without a count). */
  update(done: number, total: number): void;
  /** Clears the bar; what follows prints on a clean line. */
  finish(): void;
}

const BAR = 24;
const SILENT: Progress = { update() {}, finish() {} };

/** A one-line bar on stderr, redrawn at most every 50 ms; silent when stderr is not a terminal (scripts, CI). */
export function progress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return SILENT;
  let drawn = 0;
  let shown = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - drawn < 50 && done < total) return;
      drawn = now;
      shown = true;
      const share = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(share * BAR);
      const count = total > 0 ? ` ${done}/${total}` : "";
      stream.write(
        `\r${label} [${"#".repeat(filled)}${" ".repeat(BAR - filled)}] ${Math.round(share * 100)}%${count}\x1b[K`,
      );
    },
    finish() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
