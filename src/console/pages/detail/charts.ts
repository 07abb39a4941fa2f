import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
  type ChartConfiguration,
} from "chart.js";
import type { Series } from "./buckets";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, DoughnutController, ArcElement, Tooltip, Legend);

export { Chart };

/** Series colours that read on both the light and the dark theme. */
const PALETTE = ["#3b82f6", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#06b6d4", "#ec4899", "#84cc16", "#f97316"];
const REST = "#94a3b8";

/** Each name's colour by its place in `order` (the same in every chart); names not in it are grey. */
export const coloursBy = (order: string[]) => (name: string) => {
  const place = order.indexOf(name);
  return place < 0 ? REST : PALETTE[place % PALETTE.length]!;
};
type Colours = (name: string) => string;

/** Text and grid colours of the theme. */
export const themeInk = (dark: boolean) => ({
  text: dark ? "#d4d4d8" : "#3f3f46",
  grid: dark ? "rgba(255,255,255,0.12)" : "rgba(0,0,0,0.08)",
});

/** A stacked bar chart of a series per name over the periods. */
export function stackedBars(
  data: Series,
  dark: boolean,
  format: (v: number) => string,
  colour: Colours,
): ChartConfiguration<"bar"> {
  const ink = themeInk(dark);
  const axis = { stacked: true, ticks: { color: ink.text }, grid: { color: ink.grid } };
  return {
    type: "bar",
    data: {
      labels: data.labels,
      datasets: data.series.map((s) => ({ label: s.name, data: s.values, backgroundColor: colour(s.name) })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { x: axis, y: { ...axis, ticks: { color: ink.text, callback: (v) => format(Number(v)) } } },
      plugins: {
        legend: { labels: { color: ink.text, boxWidth: 12 } },
        tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${format(Number(item.raw))}` } },
      },
    },
  };
}

/** A doughnut of each name's share. */
export function shares(
  items: { name: string; value: number }[],
  dark: boolean,
  format: (v: number) => string,
  colour: Colours,
): ChartConfiguration<"doughnut"> {
  const ink = themeInk(dark);
  return {
    type: "doughnut",
    data: {
      labels: items.map((item) => item.name),
      datasets: [
        {
          data: items.map((item) => item.value),
          backgroundColor: items.map((item) => colour(item.name)),
          borderColor: dark ? "#1d232a" : "#ffffff",
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { position: "right", labels: { color: ink.text, boxWidth: 12 } },
        tooltip: { callbacks: { label: (item) => `${item.label}: ${format(Number(item.raw))}` } },
      },
    },
  };
}
