import type { Command } from "commander";
import {
  type ImportReport,
  importDatabase,
  type Product,
  PRODUCTS,
  type Section,
  SECTIONS,
} from "../../service/importer/run";
import { withService } from "../context";
import { action, list, printJson, printTable, say, usage } from "../output";
import { progress } from "../progress";

interface ImportFlags {
  from: string;
  dsn: string;
  dryRun?: boolean;
  withLogs?: boolean;
  since?: string;
  only?: string[];
  json?: boolean;
}

function sectionsOf(only: string[] | undefined): Set<Section> {
  const names = only ?? [...SECTIONS];
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length > 0) usage(`--only: unknown ${unknown.join(", ")} (choose from ${SECTIONS.join(", ")})`);
  return new Set(names as Section[]);
}

function sinceOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const at = /^\d+$/.test(text) ? Number(text) : Date.parse(text) / 1000;
  return Number.isFinite(at) ? Math.floor(at) : usage("--since must be a date (2025-01-31) or unix seconds");
}

function printReport(report: ImportReport): void {
  const shown = report.items.filter((i) => i.action !== "unchanged");
  if (shown.length > 0)
    printTable(shown, [
      { header: "ACTION", value: (i) => i.action },
      { header: "KIND", value: (i) => i.kind },
      { header: "NAME", value: (i) => i.name },
      {
        header: "ID",
        value: (i) =>
          i.sourceId !== undefined && i.targetId !== undefined && i.sourceId !== i.targetId
            ? `${i.sourceId} → ${i.targetId}`
            : String(i.targetId ?? ""),
      },
      { header: "WHY", value: (i) => i.reason ?? "" },
    ]);
  const counts = new Map<string, number>();
  for (const i of report.items) counts.set(`${i.kind} ${i.action}`, (counts.get(`${i.kind} ${i.action}`) ?? 0) + 1);
  say(`source: ${report.detected}${report.detected !== report.from ? ` (asked for ${report.from})` : ""}`);
  say(`counts: ${[...counts].map(([k, n]) => `${k} ${n}`).join(", ") || "nothing"}`);
  for (const line of report.notCarried) say(`not carried: ${line}`);
  const b = report.balance;
  say(
    `balance total: source ${b.source} (used ${b.sourceUsed})` +
      (b.after === undefined ? "" : `, Tollgate after ${b.after} (used ${b.afterUsed})`),
  );
  for (const s of report.streams)
    say(
      `${s.table}: ${s.imported} ${report.written ? "imported" : "to import"}, ${s.alreadyThere} already there, ` +
        `${s.skipped} skipped (user not imported), ${s.renumbered} renumbered` +
        (s.beforeSince > 0 ? `, ${s.beforeSince} older than --since left out` : "") +
        (report.written ? `, ${Math.round(s.read / Math.max(s.seconds, 0.001))} rows/s` : ""),
    );
  const changing = report.items.some((i) => i.action === "create" || i.action === "update");
  say(report.written ? (changing ? "imported" : "nothing to change") : "dry run: nothing written");
}

async function runImport(flags: ImportFlags): Promise<void> {
  if (!(PRODUCTS as readonly string[]).includes(flags.from)) usage(`--from must be ${PRODUCTS.join(" or ")}`);
  if (flags.since !== undefined && !flags.withLogs) usage("--since needs --with-logs");
  const only = sectionsOf(flags.only);
  const since = sinceOf(flags.since);
  await withService(async (ctx) => {
    const bar = progress("importing");
    try {
      const report = await importDatabase(ctx, {
        from: flags.from as Product,
        dsn: flags.dsn,
        dryRun: Boolean(flags.dryRun),
        only,
        withLogs: Boolean(flags.withLogs),
        since,
        onProgress: (_label, done, total) => bar.update(done, total),
      });
      bar.finish();
      // The rows themselves hold password hashes and keys: the report names them, never shows them.
      if (flags.json) printJson({ ...report, items: report.items.map(({ values: _values, ...shown }) => shown) });
      else printReport(report);
    } finally {
      bar.finish();
    }
  });
}

/** Options and action of `tollgate import`. */
export function importCommand(command: Command): void {
  command
    .requiredOption("--from <product>", "one-api or new-api")
    .requiredOption("--dsn <dsn>", "the source: a SQLite file, postgres://… or mysql://…")
    .option("--dry-run", "print the plan (with --with-logs: of the logs too) and write nothing")
    .option("--with-logs", "also copy the usage logs and task records, in batches")
    .option("--since <date>", "with --with-logs: only logs from this date (2025-01-31 or unix seconds)")
    .option("--only <sections>", `what to carry, comma-separated: ${SECTIONS.join(",")}`, list)
    .option("--json", "print the report as JSON")
    .action(action(runImport));
}
