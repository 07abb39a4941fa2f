/** Values cross into the databases as plain scalars: booleans become 0/1 so all three agree. */
export function toParam(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === undefined) return null;
  return value;
}

/** BIGINT columns come back as BigInt from PostgreSQL; every quota fits a double, so rows carry numbers. */
export function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (typeof value === "bigint") row[key] = Number(value);
  }
  return row;
}
