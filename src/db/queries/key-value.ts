import type { Db } from "../connect";
import type { Exec } from "../exec";
import { runPrepared } from "../prepared";

type KeyValueTable = "options" | "internals";

export async function readAll(db: Exec, table: KeyValueTable): Promise<Map<string, string>> {
  const rows = await db.k.selectFrom(table).select(["key", "value"]).execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function readOne(db: Exec, table: KeyValueTable, key: string): Promise<string | undefined> {
  const row = await db.k.selectFrom(table).select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/**
 * Insert or replace one pair (the upsert syntax is the one dialect difference here), as a statement compiled
 * once: a flush records its journal offset with it, and building the query each time cost more than running it.
 * The parameters are the key, the value, then the value again for the update.
 */
export async function upsert(db: Exec, table: KeyValueTable, key: string, value: string): Promise<void> {
  await runPrepared(
    db,
    `upsert-${table}`,
    (k) => {
      const insert = k.insertInto(table).values({ key: "", value: "" });
      return db.dialect === "mysql"
        ? insert.onDuplicateKeyUpdate({ value: "" })
        : insert.onConflict((oc) => oc.column("key").doUpdateSet({ value: "" }));
    },
    [key, value, value],
  );
}

/** Insert only when absent; answers the value that is stored afterwards (first writer wins). */
export async function insertIfAbsent(db: Db, table: KeyValueTable, key: string, value: string): Promise<string> {
  const insert = db.k.insertInto(table).values({ key, value });
  if (db.dialect === "mysql") await insert.ignore().execute();
  else await insert.onConflict((oc) => oc.column("key").doNothing()).execute();
  return (await readOne(db, table, key)) ?? value;
}

export async function removeKey(db: Exec, table: KeyValueTable, key: string): Promise<void> {
  await db.k.deleteFrom(table).where("key", "=", key).execute();
}
