import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef } from "react";
import { theme } from "../../state/theme";
import { Chart } from "./charts";
import type { ChartConfiguration } from "chart.js";

interface ChartCanvasProps {
  /** Builds the chart for the theme; a new function redraws it. */
  build: (dark: boolean) => ChartConfiguration<"bar" | "doughnut">;
  label: string;
  testId: string;
}

/** A Chart.js chart drawn on a canvas, redrawn when its data or the theme changes. */
export function ChartCanvas({ build, label, testId }: ChartCanvasProps) {
  useSignals();
  const dark = theme.value === "dark";
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, build(dark) as ChartConfiguration);
    return () => chart.destroy();
  }, [build, dark]);
  return (
    <div className="relative h-72">
      <canvas ref={canvas} role="img" aria-label={label} data-testid={testId} />
    </div>
  );
}
