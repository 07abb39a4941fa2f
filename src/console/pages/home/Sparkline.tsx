/** A small line of values, oldest first, scaled to its own maximum; nothing to draw gives a flat line. */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  const width = 160;
  const height = 40;
  const max = Math.max(...values, 0) || 1;
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = (values.length > 0 ? values : [0, 0])
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`)
    .join(" ");
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="w-40 h-10 text-primary"
      role="img"
      aria-label={label}
      data-testid="sparkline"
    >
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
    </svg>
  );
}
