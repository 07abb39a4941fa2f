/** One model in the visual editor: a fixed price per request, or ratios (a price, when set, wins). */
export interface PriceRow {
  name: string;
  price?: number;
  ratio?: number;
  completionRatio?: number;
}

export interface PriceMaps {
  ModelPrice: Record<string, number>;
  ModelRatio: Record<string, number>;
  CompletionRatio: Record<string, number>;
}

export function rowsFromMaps(maps: PriceMaps): PriceRow[] {
  const names = new Set([
    ...Object.keys(maps.ModelPrice),
    ...Object.keys(maps.ModelRatio),
    ...Object.keys(maps.CompletionRatio),
  ]);
  return [...names].sort().map((name) => ({
    name,
    price: maps.ModelPrice[name],
    ratio: maps.ModelRatio[name],
    completionRatio: maps.CompletionRatio[name],
  }));
}

export function mapsFromRows(rows: readonly PriceRow[]): PriceMaps {
  const maps: PriceMaps = { ModelPrice: {}, ModelRatio: {}, CompletionRatio: {} };
  for (const row of rows) {
    if (row.price !== undefined) maps.ModelPrice[row.name] = row.price;
    if (row.ratio !== undefined) maps.ModelRatio[row.name] = row.ratio;
    if (row.completionRatio !== undefined) maps.CompletionRatio[row.name] = row.completionRatio;
  }
  return maps;
}

/** The three JSON texts as maps, or undefined when one is not a JSON object of numbers. */
export function parseMaps(texts: Record<keyof PriceMaps, string>): PriceMaps | undefined {
  try {
    const maps = {
      ModelPrice: JSON.parse(texts.ModelPrice),
      ModelRatio: JSON.parse(texts.ModelRatio),
      CompletionRatio: JSON.parse(texts.CompletionRatio),
    } as PriceMaps;
    const numbersOnly = Object.values(maps).every(
      (m) => m && typeof m === "object" && !Array.isArray(m) && Object.values(m).every((v) => typeof v === "number"),
    );
    return numbersOnly ? maps : undefined;
  } catch {
    return undefined;
  }
}

export type RowProblem = "name-required" | "not-a-number" | "duplicate";

/** A number field's text: empty means unset; anything but a finite, non-negative number is refused. */
export function numberOrUnset(text: string): number | undefined | "invalid" {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? n : "invalid";
}

/**
 * Puts a row into the list (replacing `replacing` when editing). A fixed price drops the ratios;
 * a name already used by another row is refused.
 */
export function upsertRow(
  rows: readonly PriceRow[],
  input: { name: string; price: string; ratio: string; completionRatio: string },
  replacing?: string,
): PriceRow[] | RowProblem {
  const name = input.name.trim();
  if (!name) return "name-required";
  if (name !== replacing && rows.some((r) => r.name === name)) return "duplicate";
  const price = numberOrUnset(input.price);
  if (price === "invalid") return "not-a-number";
  let row: PriceRow = { name, price };
  if (price === undefined) {
    const ratio = numberOrUnset(input.ratio);
    const completionRatio = numberOrUnset(input.completionRatio);
    if (ratio === "invalid" || completionRatio === "invalid") return "not-a-number";
    row = { name, ratio, completionRatio };
  }
  const rest = rows.filter((r) => r.name !== (replacing ?? name));
  return [...rest, row].sort((a, b) => a.name.localeCompare(b.name));
}
