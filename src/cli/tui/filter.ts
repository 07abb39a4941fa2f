/** A filter line split into its free text and its `name:value` parts (only the names given count as parts). */
export interface FilterLine {
  text: string;
  fields: Record<string, string>;
}

/** "gpt main model:gpt-4o group:vip" with fields ["model", "group"] → text "gpt main", model and group. */
export function parseFilter(line: string, names: readonly string[]): FilterLine {
  const fields: Record<string, string> = {};
  const words: string[] = [];
  for (const word of line.trim().split(/\s+/).filter(Boolean)) {
    const colon = word.indexOf(":");
    const name = colon > 0 ? word.slice(0, colon).toLowerCase() : "";
    if (names.includes(name) && colon < word.length - 1) fields[name] = word.slice(colon + 1);
    else words.push(word);
  }
  return { text: words.join(" "), fields };
}
