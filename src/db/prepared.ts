import type { CompiledQuery, Kysely } from "kysely";
import type { Exec } from "./exec";
import type { Tables } from "./schema";

const compiled = new Map<string, CompiledQuery>();

/**
 * Runs a hot query compiled once per dialect (not per connection or transaction): `build` makes it with
 * placeholder values, and each call binds its own. Only for queries whose SQL text never depends on the values.
 */
export async function runPrepared<R>(
  db: Exec,
  name: string,
  build: (k: Kysely<Tables>) => { compile(): CompiledQuery },
  parameters: unknown[],
): Promise<R[]> {
  const key = `${db.dialect}:${name}`;
  let query = compiled.get(key);
  if (!query) compiled.set(key, (query = build(db.k).compile()));
  const result = await db.k.executeQuery<R>({ ...query, parameters });
  return result.rows;
}
