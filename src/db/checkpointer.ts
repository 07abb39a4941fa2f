import { sql } from "kysely";
import type { Db } from "./connect";

/**
 * The checkpointer's thread, as source text (it must not depend on how the bundler names things): its own
 * connection to the file copies the write-ahead log into the database every `everyMs`, without waiting for
 * readers or writers (PASSIVE). The log starts over only when a write begins with every frame copied, so
 * under writes that never pause (a commit lands during most copies) one pass is not enough: passes repeat
 * until one finds nothing new; otherwise the log file grows for as long as the load lasts.
 */
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
let db, timer;
self.onmessage = ({ data }) => {
  if (data.stop) {
    clearInterval(timer);
    try { db?.run("PRAGMA wal_checkpoint(PASSIVE)"); db?.close(); } catch {}
    postMessage("stopped");
    return;
  }
  db = new Database(data.path);
  db.run("PRAGMA busy_timeout = 1000");
  const pass = db.query("PRAGMA wal_checkpoint(PASSIVE)");
  timer = setInterval(() => {
    try {
      let last = -1;
      for (let i = 0; i < 20; i++) {
        const { log, checkpointed } = pass.get();
        if (checkpointed === log && log === last) break;
        last = log;
      }
    } catch {}
  }, data.everyMs);
};
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves SQLite's WAL checkpoints off the server's thread: the connection stops checkpointing on commit (which
 * stalls the event loop for the copy, and copies a hot page once per commit), and a worker thread checkpoints
 * everything written in the last interval at once. Nothing for the networked databases.
 */
export async function checkpointInBackground(db: Db, everyMs = 1000): Promise<Checkpointer> {
  if (db.dialect !== "sqlite" || !db.sqlitePath || db.sqlitePath === ":memory:") return { stop: async () => {} };
  const url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(url);
  (worker as unknown as { unref(): void }).unref(); // Bun's Worker; never keeps the process alive
  worker.postMessage({ path: db.sqlitePath, everyMs });
  await sql`PRAGMA wal_autocheckpoint = 0`.execute(db.k);
  return {
    async stop() {
      const stopped = new Promise<void>((resolve) =>
        worker.addEventListener("message", () => resolve(), { once: true }),
      );
      worker.postMessage({ stop: true });
      await Promise.race([stopped, Bun.sleep(2000)]);
      worker.terminate();
      URL.revokeObjectURL(url);
      await sql`PRAGMA wal_autocheckpoint = 1000`.execute(db.k).catch(() => {});
    },
  };
}
