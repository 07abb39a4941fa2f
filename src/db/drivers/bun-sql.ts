import type { ReservedSQL, SQL } from "bun";
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult } from "kysely";
import { normalizeRow } from "./values";

/** One physical connection of Bun's SQL pool, held from acquire to release as Kysely expects. */
class BunSqlConnection implements DatabaseConnection {
  constructor(readonly reserved: ReservedSQL) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result: any = await this.reserved.unsafe(query.sql, query.parameters as unknown[]);
    const rows = Array.from(result as Iterable<Record<string, unknown>>, normalizeRow) as R[];
    const insertId = result.lastInsertRowid;
    return {
      rows,
      numAffectedRows: BigInt(result.affectedRows ?? result.count ?? 0),
      insertId: insertId ? BigInt(insertId) : undefined,
    };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield await this.executeQuery<R>(query);
  }
}

export class BunSqlDriver implements Driver {
  /** Connections acquired and not yet released. */
  inUse = 0;

  constructor(private readonly pool: SQL) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = new BunSqlConnection(await this.pool.reserve());
    this.inUse++;
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as BunSqlConnection).reserved.unsafe("BEGIN");
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as BunSqlConnection).reserved.unsafe("COMMIT");
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as BunSqlConnection).reserved.unsafe("ROLLBACK");
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.inUse--;
    (connection as BunSqlConnection).reserved.release();
  }

  async destroy(): Promise<void> {
    await this.pool.close();
  }
}
