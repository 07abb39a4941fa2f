import type { Command } from "commander";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { refuse } from "../../service/errors";
import { applySteps, planDocument, summary } from "../apply/apply";
import { formatDocument, parseDocument, type Format } from "../apply/document";
import { exportDocument } from "../apply/export";
import type { Change, Step } from "../apply/plan";
import { asRoot } from "../context";
import { readStdin } from "../define";
import { action, printJson, printTable, say, usage } from "../output";
import { progress } from "../progress";

const EXAMPLE_FILE = `
File format (YAML or JSON). Every section is optional; objects are matched by the
key noted; fields left out are not managed; apply never deletes anything.
  version: 1
  options:                      # by key, checked as the settings screen saves them
    SystemName: My Gateway
    QuotaForNewUser: 500000
  users:                        # by username; password applied when given, never exported
    - { username: alice, password: change-me-123, role: admin, group: default, quota: 5000000 }
  channels:                     # by name; key applied when given, exported only --with-secrets
    - name: openai-main
      type: OpenAI              # a number or a type name
      key: sk-upstream-key
      models: [gpt-4o, gpt-4o-mini]
      groups: [default]
      priority: 10
      model_mapping: { gpt-4: gpt-4o }
  tokens:                       # by (user, name)
    - { user: alice, name: laptop, remain_quota: 500000, expired_time: never }
  redemptions:                  # by name: count is how many codes of the name should exist
    - { name: launch, quota: 500000, count: 10 }`;

const valueText = (value: unknown): string => {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "none");
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

const changeText = (change: Change): string =>
  "to" in change ? `${change.field}: ${valueText(change.from)} → ${valueText(change.to)}` : `${change.field} (secret)`;

/** The plan for people: what changes (unchanged objects only counted), then the summary. */
function printPlan(steps: Step[]): void {
  const changing = steps.filter((s) => s.action !== "unchanged" || s.note);
  if (changing.length > 0) {
    printTable(changing, [
      { header: "ACTION", value: (s) => s.action },
      { header: "KIND", value: (s) => s.kind },
      { header: "NAME", value: (s) => s.name },
      { header: "CHANGES", value: (s) => [...s.changes.map(changeText), ...(s.note ? [s.note] : [])].join(", ") },
    ]);
  }
  say(summary(steps));
}

const stepJson = ({ run: _run, ...shown }: Step) => shown;

async function readDocument(file: string) {
  if (file !== "-" && !existsSync(file)) refuse(`${file}: no such file`);
  const text = file === "-" ? await readStdin() : readFileSync(file, "utf8");
  return parseDocument(text, file === "-" ? "stdin" : file);
}

async function applyFile(flags: { file: string; dryRun?: boolean; json?: boolean }): Promise<void> {
  const document = await readDocument(flags.file);
  await asRoot(async (ctx, root) => {
    const steps = await planDocument({ ctx, root }, document);
    if (!flags.json) printPlan(steps);
    if (!flags.dryRun) {
      const bar = progress("applying");
      try {
        await applySteps(steps, bar.update);
      } finally {
        bar.finish();
      }
      if (!flags.json) say(steps.some((s) => s.run) ? summary(steps, true) : "nothing to change");
    }
    if (flags.json) printJson({ dry_run: Boolean(flags.dryRun), steps: steps.map(stepJson) });
  });
}

interface ExportFlags {
  output?: string;
  format?: string;
  withSecrets?: boolean;
  force?: boolean;
}

async function exportFile(flags: ExportFlags): Promise<void> {
  const format = (flags.format ?? (flags.output?.toLowerCase().endsWith(".json") ? "json" : "yaml")) as Format;
  if (format !== "yaml" && format !== "json") usage("--format must be yaml or json");
  if (flags.output && existsSync(flags.output) && !flags.force)
    refuse(`${flags.output} already exists (--force replaces it)`);
  const text = await asRoot(async (ctx, root) =>
    formatDocument(await exportDocument({ ctx, root }, Boolean(flags.withSecrets)), format),
  );
  if (!flags.output) return void process.stdout.write(text);
  writeFileSync(flags.output, text, { mode: flags.withSecrets ? 0o600 : 0o644 });
  say(`exported to ${flags.output}${flags.withSecrets ? " (with secrets: keep it safe)" : ""}`);
}

/** Options and action of `tollgate apply`. */
export function applyCommand(apply: Command): void {
  apply
    .requiredOption("-f, --file <file>", 'the file ("-" reads stdin)')
    .option("--dry-run", "print the plan (create / update / unchanged) and write nothing")
    .option("--json", "print the plan as JSON for scripts")
    .addHelpText("after", EXAMPLE_FILE)
    .action(action(applyFile));
}

/** Options and action of `tollgate export`. */
export function exportCommand(exporter: Command): void {
  exporter
    .option("-o, --output <file>", "write to this file instead of stdout (.json means JSON)")
    .option("--format <format>", "yaml (default) or json")
    .option("--with-secrets", "include channel keys, token keys and secret options")
    .option("--force", "replace the output file if it exists")
    .action(action(exportFile));
}
