import type { Command } from "commander";
import { integer } from "./output";

/** A subcommand with its description and, under --help, an example. */
export function sub(parent: Command, spec: string, description: string, ...examples: string[]): Command {
  const lines = examples.map((example) => `  ${example}`).join("\n");
  return parent
    .command(spec)
    .description(description)
    .addHelpText("after", `\nExample${examples.length > 1 ? "s" : ""}:\n${lines}`);
}

export interface ListFlags {
  json?: boolean;
  page: number;
  pageSize: number;
}

/** --json, --page and --page-size (1 to 100, as the API allows) on a listing. */
export const listing = (command: Command): Command =>
  command
    .option("--json", "print JSON for scripts")
    .option("--page <n>", "page number, from 1", integer(1), 1)
    .option("--page-size <n>", "items per page, 1 to 100", integer(1, 100), 20);

export const jsonFlag = (command: Command): Command => command.option("--json", "print JSON for scripts");

/** Reads all of stdin as text (for --password-stdin and values given as "-"). */
export async function readStdin(): Promise<string> {
  return (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "");
}
