import type { Database } from "bun:sqlite";
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from "kysely";
import { toParam } from "./values";

/** Serializes access to the one SQLite connection so a transaction never interleaves with other queries. */
class ConnectionMutex {
  private pending: Promise<void> | null = null;
  private release: (() => void) | null = null;

  async lock(): Promise<void> {
    while (this.pending) await this.pending;
    this.pending = new Promise((resolve) => (this.release = resolve));
  }

  unlock(): void {
    const release = this.release;
    this.pending = null;
    this.release = null;
    release?.();
  }
}

class BunSqliteConnection implements DatabaseConnection {
  constructor(private readonly db: Database) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.db.query(query.sql);
    const params = query.parameters.map(toParam) as any[];
    if (statement.columnNames.length > 0) {
      return { rows: statement.all(...params) as R[] };
    }
    const { changes, lastInsertRowid } = statement.run(...params);
    return {
      rows: [],
      numAffectedRows: BigInt(changes),
      insertId: lastInsertRowid ? BigInt(lastInsertRowid) : undefined,
    };
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    const statement = this.db.query(query.sql);
    let rows: R[] = [];
    for (const row of statement.iterate(...(query.parameters.map(toParam) as any[]))) {
      rows.push(row as R);
      if (rows.length >= chunkSize) {
        yield { rows };
        rows = [];
      }
    }
    if (rows.length) yield { rows };
  }
}

export class BunSqliteDriver implements Driver {
  private readonly mutex = new ConnectionMutex();
  private readonly connection: BunSqliteConnection;

  constructor(private readonly db: Database) {
    this.connection = new BunSqliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }

  async beginTransaction(): Promise<void> {
    this.db.run("BEGIN IMMEDIATE");
  }

  async commitTransaction(): Promise<void> {
    this.db.run("COMMIT");
  }

  async rollbackTransaction(): Promise<void> {
    this.db.run("ROLLBACK");
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.db.close();
  }
}
