/** Parses "401,500-503" into a membership test; malformed parts are ignored. */
export function statusMatcher(spec: string): (status: number) => boolean {
  const ranges: [number, number][] = [];
  for (const part of spec.split(",")) {
    const m = /^\s*(\d{3})\s*(?:-\s*(\d{3})\s*)?$/.exec(part);
    if (m) ranges.push([Number(m[1]), Number(m[2] ?? m[1])]);
  }
  return (status) => ranges.some(([lo, hi]) => status >= lo && status <= hi);
}
