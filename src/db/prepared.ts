import type { Database as SqliteDatabase, Statement } from "bun:sqlite";
import type { CompiledQuery, Kysely } from "kysely";
import type { Exec } from "./exec";
import type { Tables } from "./schema";

type Build = (k: Kysely<Tables>) => { compile(): CompiledQuery };

const compiled = new Map<string, CompiledQuery>();
const statements = new WeakMap<SqliteDatabase, Map<string, Statement>>();

function compiledOnce(db: Exec, name: string, build: Build): CompiledQuery {
  const key = `${db.dialect}:${name}`;
  let query = compiled.get(key);
  if (!query) compiled.set(key, (query = build(db.k).compile()));
  return query;
}

/**
 * Runs a hot query compiled once per dialect (not per connection or transaction): `build` makes it with
 * placeholder values, and each call binds its own. Only for statements whose SQL text never depends on the
 * values. In a SQLite transaction it runs as the handle's own prepared statement, without the builder.
 */
export async function runPrepared<R>(db: Exec, name: string, build: Build, parameters: unknown[]): Promise<R[]> {
  if (db.sqlite) {
    const statement = sqliteStatement(db.sqlite, db, name, build);
    if (statement.columnNames.length > 0) return statement.all(...(parameters as never[])) as R[];
    statement.run(...(parameters as never[]));
    return [];
  }
  return (await db.k.executeQuery<R>({ ...compiledOnce(db, name, build), parameters })).rows;
}

/** The same statement as the SQLite handle's own prepared statement, for loops that run it many times. */
export function sqliteStatement(sqlite: SqliteDatabase, db: Exec, name: string, build: Build): Statement {
  let byName = statements.get(sqlite);
  if (!byName) statements.set(sqlite, (byName = new Map()));
  let statement = byName.get(name);
  if (!statement) byName.set(name, (statement = sqlite.prepare(compiledOnce(db, name, build).sql)));
  return statement;
}
