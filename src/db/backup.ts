import { chmodSync, closeSync, existsSync, openSync, renameSync, rmSync, statSync } from "node:fs";

/**
 * Runs in a worker so the caller's thread stays free to show progress: VACUUM INTO reads the database in one
 * read transaction (a consistent copy while the server keeps writing) and writes a compact new file.
 */
const WORKER = `import { Database } from "bun:sqlite";
self.onmessage = ({ data }) => {
  try {
    const db = new Database(data.source, { readonly: true });
    db.run("PRAGMA busy_timeout = 10000");
    db.run("VACUUM INTO ?", [data.target]);
    db.close();
    postMessage({ ok: true });
  } catch (error) {
    postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};`;

const sizeOf = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

function vacuumInto(source: string, target: string): Promise<void> {
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: "application/typescript" })));
  return new Promise<void>((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ ok: boolean; message?: string }>) =>
      data.ok ? resolve() : reject(new Error(`backup failed: ${data.message}`));
    worker.onerror = (event) => reject(new Error(`backup failed: ${event.message}`));
    worker.postMessage({ source, target });
  }).finally(() => worker.terminate());
}

/**
 * A consistent copy of a live SQLite database at `target`, written beside it first and renamed into place,
 * so a failed or interrupted backup never leaves a partial file. `onProgress` sees bytes written against the
 * source's size (the copy is usually smaller: it is vacuumed). Answers the copy's size in bytes.
 */
export async function backupSqlite(
  source: string,
  target: string,
  onProgress?: (written: number, total: number) => void,
): Promise<number> {
  const partial = `${target}.partial-${process.pid}`;
  const total = sizeOf(source) + sizeOf(`${source}-wal`);
  const timer = setInterval(() => onProgress?.(Math.min(sizeOf(partial), total), total), 100);
  try {
    // VACUUM INTO writes into an empty file as it finds it, so the copy is created readable by its owner alone.
    closeSync(openSync(partial, "w", 0o600));
    await vacuumInto(source, partial);
    chmodSync(partial, 0o600);
    renameSync(partial, target);
  } finally {
    clearInterval(timer);
    rmSync(partial, { force: true });
  }
  const bytes = sizeOf(target);
  onProgress?.(total, total);
  return bytes;
}
