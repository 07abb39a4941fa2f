import type { CompiledQuery, Kysely } from "kysely";
import type { Tables } from "./schema";

const compiled = new WeakMap<object, Map<string, CompiledQuery>>();

/**
 * Runs a hot query compiled once per connection: `build` makes it with placeholder values, and each call
 * binds its own. Only for queries whose SQL text never depends on the values.
 */
export async function runPrepared<R>(
  k: Kysely<Tables>,
  name: string,
  build: (k: Kysely<Tables>) => { compile(): CompiledQuery },
  parameters: unknown[],
): Promise<R[]> {
  let byName = compiled.get(k);
  if (!byName) compiled.set(k, (byName = new Map()));
  let query = byName.get(name);
  if (!query) byName.set(name, (query = build(k).compile()));
  const result = await k.executeQuery<R>({ ...query, parameters });
  return result.rows;
}
