import { describe, expect, test } from "bun:test";
import { Counter, Histogram, Registry } from "prom-client";
import { registerScraped, TalliedCounter, TalliedHistogram } from "../../../src/service/metrics/tallies";

const BOUNDS = [0.01, 0.1, 1];
const LABELS = { model: 'gpt "4"\\mini\nx', channel: "3" };
const OTHER = { model: "other", channel: "4" };

/** The same observations through prom-client's own metrics and through tallies read the same at a scrape. */
describe("tallied metrics", () => {
  test("a histogram reads as prom-client's: cumulative buckets, +Inf, sum and count, escaped labels", async () => {
    const own = new Registry();
    const theirs = new Histogram({
      name: "h_seconds",
      help: "a help \\ with\nnewline",
      labelNames: ["model", "channel"],
      buckets: BOUNDS,
      registers: [own],
    });
    const ours = new Registry();
    const tallied = new TalliedHistogram("h_seconds", "a help \\ with\nnewline", ["model", "channel"], BOUNDS);
    registerScraped(ours, tallied);
    const values: [Record<string, string>, number][] = [
      [LABELS, 0.005],
      [LABELS, 0.01],
      [LABELS, 0.5],
      [LABELS, 7],
      [OTHER, 0.05],
    ];
    for (const [labels, value] of values) {
      theirs.observe(labels, value);
      tallied.cell(labels).observe(value);
    }
    expect(sortedLines(await ours.metrics())).toEqual(sortedLines(await own.metrics()));
  });

  test("a counter reads as prom-client's; amounts a counter cannot take are not counted", async () => {
    const own = new Registry();
    const theirs = new Counter({ name: "c_total", help: "c", labelNames: ["model", "channel"], registers: [own] });
    const ours = new Registry();
    const tallied = new TalliedCounter("c_total", "c", ["model", "channel"]);
    registerScraped(ours, tallied);
    for (const [labels, by] of [
      [LABELS, 2],
      [LABELS, 0],
      [OTHER, 5],
    ] as const) {
      theirs.inc(labels, by);
      tallied.cell(labels).add(by);
    }
    tallied.cell(LABELS).add(-1);
    tallied.cell(LABELS).add(Number.NaN);
    expect(sortedLines(await ours.metrics())).toEqual(sortedLines(await own.metrics()));
  });

  test("the same labels given in another order are one cell, read in the metric's label order", async () => {
    const ours = new Registry();
    const tallied = new TalliedCounter("c_total", "c", ["model", "channel"]);
    registerScraped(ours, tallied);
    tallied.cell({ channel: "1", model: "m" }).add(1);
    tallied.cell({ model: "m", channel: "1" }).add(1);
    expect(await ours.metrics()).toContain('c_total{model="m",channel="1"} 2');
  });

  test("a reset zeroes the cells callers hold", async () => {
    const ours = new Registry();
    const tallied = new TalliedHistogram("h", "h", ["model"], BOUNDS);
    registerScraped(ours, tallied);
    const cell = tallied.cell({ model: "m" });
    cell.observe(0.5);
    ours.resetMetrics();
    cell.observe(2);
    const text = await ours.metrics();
    expect(text).toContain('h_count{model="m"} 1');
    expect(text).toContain('h_bucket{model="m",le="1"} 0');
    expect(text).toContain('h_sum{model="m"} 2');
  });
});

/** Label order within a line differs between the two (prom-client puts `le` first): compare lines by content. */
function sortedLines(text: string): string[] {
  return text
    .trim()
    .split("\n")
    .map((line) => {
      const match = /^([^{ ]+)\{(.*)\} (.+)$/.exec(line);
      if (!match) return line;
      const pairs = match[2]!.match(/[a-z_]+="(?:[^"\\]|\\.)*"/g) ?? [];
      return `${match[1]}{${pairs.sort().join(",")}} ${match[3]}`;
    })
    .sort();
}
