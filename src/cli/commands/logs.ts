import type { Command } from "commander";
import { listLogs } from "../../service/logs/list";
import { logStat } from "../../service/logs/stat";
import type { LogView } from "../../service/logs/view";
import { quotaDisplayFor } from "../../service/quota-text";
import { LogType } from "../../shared/constants";
import type { QuotaDisplay } from "../../shared/quota-format";
import { asRoot } from "../context";
import { jsonFlag, listing, sub, type ListFlags } from "../define";
import { nameOf, timeText, unixTimeOf } from "../names";
import { quotaColumn, withQuotaText } from "../quota-cells";
import { action, emit, printPageFooter, printRecord, printTable, type Column } from "../output";

const TYPE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(LogType).map(([name, value]) => [value, name.toLowerCase()]),
);

const columns = (display: QuotaDisplay): Column<LogView>[] => [
  { header: "TIME", value: (l) => timeText(l.created_at), fixed: true },
  { header: "TYPE", value: (l) => nameOf(TYPE_NAMES, l.type) },
  { header: "USER", value: (l) => l.username },
  { header: "TOKEN", value: (l) => l.token_name },
  { header: "MODEL", value: (l) => l.model_name },
  { header: "CH", value: (l) => l.channel || "", right: true },
  quotaColumn("QUOTA", (l) => l.quota, display),
  { header: "IN", value: (l) => l.prompt_tokens, right: true },
  { header: "OUT", value: (l) => l.completion_tokens, right: true },
  { header: "CONTENT", value: (l) => l.content },
];

interface FilterFlags {
  type?: string;
  user?: string;
  token?: string;
  model?: string;
  channel?: string;
  group?: string;
  from?: string;
  to?: string;
}

const filterOptions = (command: Command) =>
  command
    .option("--type <type>", "consume, topup, manage, system, error or refund (or its number)")
    .option("--user <username>", "only this user's rows")
    .option("--token <name>", "only rows of tokens with this name")
    .option("--model <model>", "only this model")
    .option("--channel <id>", "only this channel")
    .option("--group <group>", "only this group")
    .option("--from <when>", "from this time (unix seconds or a date such as 2026-01-31T00:00Z)")
    .option("--to <when>", "up to this time, inclusive");

/** The API's query from the flags; the service checks every value as it checks the query string. */
function queryOf(flags: FilterFlags): Record<string, unknown> {
  const type =
    flags.type === undefined
      ? undefined
      : (Object.entries(TYPE_NAMES).find(([, name]) => name === flags.type)?.[0] ?? flags.type);
  const time = (value: string | undefined, what: string) =>
    value === undefined ? undefined : unixTimeOf(value, -1, what);
  return {
    type,
    username: flags.user,
    token_name: flags.token,
    model_name: flags.model,
    channel: flags.channel,
    group: flags.group,
    start_timestamp: time(flags.from, "--from"),
    end_timestamp: time(flags.to, "--to"),
  };
}

/** The subcommands of `tollgate log`. */
export function logCommands(log: Command): void {
  listing(
    filterOptions(
      sub(log, "list", "list log entries, newest first", "tollgate log list --model gpt-4o --from 2026-01-01 --json"),
    ),
  ).action(
    action(async (flags: ListFlags & FilterFlags) =>
      asRoot(async (ctx, root) => {
        const page = await listLogs(ctx, root, "all", queryOf(flags), { page: flags.page, pageSize: flags.pageSize });
        emit(page, flags.json, () => {
          printTable(page.items, columns(quotaDisplayFor(ctx)));
          printPageFooter(page);
        });
      }),
    ),
  );

  jsonFlag(
    filterOptions(
      sub(
        log,
        "stat",
        "consumed quota over the filters, and requests and tokens of the last minute",
        "tollgate log stat --user alice --from 2026-01-01",
      ),
    ),
  ).action(
    action(async (flags: FilterFlags & { json?: boolean }) =>
      asRoot(async (ctx, root) => {
        const stat = await logStat(ctx, root, "all", queryOf(flags));
        emit(stat, flags.json, () => printRecord(withQuotaText(stat, ["quota"], quotaDisplayFor(ctx))));
      }),
    ),
  );
}
