import { sql, type Expression, type SqlBool } from "kysely";

/**
 * `column` contains `text`, case-insensitively and with the text taken literally ('!' escapes % and _,
 * because it means the same on all three dialects).
 */
export function containsText(column: string, text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
  return sql<SqlBool>`LOWER(${sql.ref(column)}) LIKE ${pattern} ESCAPE '!'`;
}
