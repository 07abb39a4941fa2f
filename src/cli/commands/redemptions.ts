import type { Command } from "commander";
import { createRedemptions } from "../../service/redemptions/create";
import { deleteRedemption } from "../../service/redemptions/delete";
import { listRedemptions } from "../../service/redemptions/list";
import { RedemptionStatus } from "../../service/redemptions/status";
import { updateRedemption } from "../../service/redemptions/update";
import type { RedemptionView } from "../../service/redemptions/view";
import { quotaDisplayFor } from "../../service/quota-text";
import type { QuotaDisplay } from "../../shared/quota-format";
import { asRoot } from "../context";
import { jsonFlag, listing, sub, type ListFlags } from "../define";
import { REDEMPTION_STATUS_NAMES, nameOf, timeText, unixTimeOf } from "../names";
import { quotaColumn } from "../quota-cells";
import { action, emit, integer, printPageFooter, printTable, say, type Column } from "../output";

const columns = (display: QuotaDisplay): Column<RedemptionView>[] => [
  { header: "ID", value: (r) => r.id, right: true },
  { header: "NAME", value: (r) => r.name },
  { header: "STATUS", value: (r) => nameOf(REDEMPTION_STATUS_NAMES, r.status) },
  quotaColumn("QUOTA", (r) => r.quota, display),
  { header: "KEY", value: (r) => r.key },
  { header: "EXPIRES", value: (r) => timeText(r.expired_time) },
];

/** The subcommands of `tollgate redemption`. */
export function redemptionCommands(redemption: Command): void {
  jsonFlag(
    sub(
      redemption,
      "create",
      "create codes and print them, one per line",
      "tollgate redemption create --quota 500000 --count 10 --name launch > codes.txt",
    ),
  )
    .requiredOption("--quota <units>", "quota each code gives (500000 = 1 USD)", integer())
    .option("--count <n>", "how many codes (1 to 100)", integer(1, 100), 1)
    .option("--name <name>", "a name for the batch (default: the quota as text)")
    .option("--expires <when>", '"never", unix seconds or a date (2026-12-31)')
    .action(
      action(async (flags: { quota: number; count: number; name?: string; expires?: string; json?: boolean }) =>
        asRoot(async (ctx, root) => {
          const expired_time = flags.expires === undefined ? undefined : unixTimeOf(flags.expires, 0, "--expires");
          const keys = await createRedemptions(ctx, root, {
            quota: flags.quota,
            count: flags.count,
            name: flags.name,
            expired_time,
          });
          emit(keys, flags.json, () => say(keys.join("\n")));
        }),
      ),
    );

  listing(sub(redemption, "list", "list codes, newest first", "tollgate redemption list --keyword launch --json"))
    .option("--keyword <text>", "the id, or part of the name")
    .action(
      action(async (flags: ListFlags & { keyword?: string }) =>
        asRoot(async (ctx, root) => {
          const page = await listRedemptions(ctx, root, {
            keyword: flags.keyword,
            page: flags.page,
            pageSize: flags.pageSize,
          });
          emit(page, flags.json, () => {
            printTable(page.items, columns(quotaDisplayFor(ctx)));
            printPageFooter(page);
          });
        }),
      ),
    );

  for (const [name, status] of [
    ["enable", RedemptionStatus.Unused],
    ["disable", RedemptionStatus.Disabled],
  ] as const) {
    jsonFlag(sub(redemption, `${name} <id>`, `${name} an unused code`, `tollgate redemption ${name} 42`)).action(
      action(async (id: string, flags: { json?: boolean }) =>
        asRoot(async (ctx, root) => {
          const code = await updateRedemption(ctx, root, { id, status }, true);
          emit(code, flags.json, () =>
            say(`redemption code ${code.id}: ${nameOf(REDEMPTION_STATUS_NAMES, code.status)}`),
          );
        }),
      ),
    );
  }

  sub(redemption, "delete <id>", "delete a code, whatever its status", "tollgate redemption delete 42").action(
    action(async (id: string) =>
      asRoot(async (ctx, root) => {
        await deleteRedemption(ctx, root, id);
        say(`deleted redemption code ${id}`);
      }),
    ),
  );
}
