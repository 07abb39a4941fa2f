/** The keys of `after` whose value differs from `before` (settings forms and the user editor send only these). */
export function changedKeys<T extends Record<string, unknown>>(before: T, after: T): (keyof T & string)[] {
  return (Object.keys(after) as (keyof T & string)[]).filter((key) => after[key] !== before[key]);
}
