import { afterAll, beforeAll } from "bun:test";
import type { Db, DialectName } from "../../src/db/connect";
import { migrate } from "../../src/db/migrations";
import { createTestDatabase, type TestDatabase } from "./databases";

/**
 * A fresh, migrated database of the dialect for the enclosing describe, dropped after it.
 * Call at describe level; the returned function gives the open connection inside tests.
 */
export function useMigratedDatabase(dialect: DialectName): () => Db {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.open();
    await migrate(db);
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });
  return () => db;
}
