import type { Command } from "commander";
import type { UserRow } from "../../service/users/directory";
import type { ServiceContext } from "../../service/context";
import { createTokens } from "../../service/tokens/create";
import { deleteToken } from "../../service/tokens/delete";
import { getToken } from "../../service/tokens/get";
import { listTokens } from "../../service/tokens/list";
import { revealKey } from "../../service/tokens/reveal";
import { TokenStatus } from "../../service/tokens/status";
import { updateToken } from "../../service/tokens/update";
import type { TokenView } from "../../service/tokens/view";
import { quotaDisplayFor } from "../../service/quota-text";
import type { QuotaDisplay } from "../../shared/quota-format";
import { asRoot } from "../context";
import { jsonFlag, listing, sub, type ListFlags } from "../define";
import { ownerOf, tokenIdOf } from "../lookup";
import { quotaColumn, withQuotaText } from "../quota-cells";
import { TOKEN_STATUS_NAMES, nameOf, timeText, unixTimeOf } from "../names";
import { action, emit, integer, list, printPageFooter, printRecord, printTable, say, type Column } from "../output";

const columns = (display: QuotaDisplay): Column<TokenView>[] => [
  { header: "ID", value: (t) => t.id, right: true },
  { header: "NAME", value: (t) => t.name },
  { header: "STATUS", value: (t) => nameOf(TOKEN_STATUS_NAMES, t.status) },
  { header: "KEY", value: (t) => t.key },
  quotaColumn("REMAIN", (t) => (t.unlimited_quota ? "unlimited" : t.remain_quota), display),
  quotaColumn("USED", (t) => t.used_quota, display),
  { header: "EXPIRES", value: (t) => timeText(t.expired_time) },
  { header: "GROUP", value: (t) => t.group },
];

interface TokenFlags {
  user: string;
  name?: string;
  quota?: number;
  unlimited?: boolean;
  expires?: string;
  models?: string[];
  allowIps?: string[];
  group?: string;
  json?: boolean;
}

/** --user on every token command: tokens belong to a user, and the CLI acts for that user. */
const forUser = (command: Command) => command.requiredOption("--user <user>", "the tokens' owner (id or username)");

const fieldOptions = (command: Command) =>
  command
    .option("--name <name>", "the token's name")
    .option("--quota <units>", "remaining quota in units (500000 = 1 USD)", integer())
    .option("--unlimited", "no quota limit")
    .option("--no-unlimited", "limited by --quota")
    .option("--expires <when>", '"never", unix seconds or a date (2026-12-31)')
    .option("--models <list>", "only these models (comma-separated; empty allows all)", list)
    .option("--allow-ips <list>", "only from these addresses or CIDR ranges (comma-separated)", list)
    .option("--group <group>", "bill in this group instead of the owner's");

function inputOf(flags: TokenFlags): Record<string, unknown> {
  const input: Record<string, unknown> = {
    name: flags.name,
    remain_quota: flags.quota,
    unlimited_quota: flags.unlimited,
    expired_time: flags.expires === undefined ? undefined : unixTimeOf(flags.expires, -1, "--expires"),
    model_limits_enabled: flags.models === undefined ? undefined : flags.models.length > 0,
    model_limits: flags.models,
    allow_ips: flags.allowIps?.join("\n"),
    group: flags.group,
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

/** Runs `work` for the owner named by --user. */
const asOwner = (ref: string, work: (ctx: ServiceContext, owner: UserRow) => Promise<void>) =>
  asRoot(async (ctx, root) => work(ctx, await ownerOf(ctx, root, ref)));

const tokenCommand = (parent: Command, spec: string, description: string, example: string) =>
  jsonFlag(forUser(sub(parent, spec, description, example)));

/** The subcommands of `tollgate token`. */
export function tokenCommands(token: Command): void {
  listing(forUser(sub(token, "list", "list a user's tokens, newest first", "tollgate token list --user alice --json")))
    .option("--keyword <text>", "part of the name")
    .action(
      action(async (flags: ListFlags & { user: string; keyword?: string }) =>
        asOwner(flags.user, async (ctx, owner) => {
          const page = await listTokens(ctx, owner, {
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

  tokenCommand(
    token,
    "show <token>",
    "show one token (by id or name; the key masked)",
    "tollgate token show laptop --user alice",
  ).action(
    action(async (ref: string, flags: TokenFlags) =>
      asOwner(flags.user, async (ctx, owner) => {
        const shown = await getToken(ctx, owner, await tokenIdOf(ctx, owner, ref));
        emit(shown, flags.json, () =>
          printRecord({
            ...withQuotaText(shown, ["remain_quota", "used_quota"], quotaDisplayFor(ctx)),
            status: nameOf(TOKEN_STATUS_NAMES, shown.status),
            expired_time: timeText(shown.expired_time),
          }),
        );
      }),
    ),
  );

  fieldOptions(
    tokenCommand(
      token,
      "add",
      "create tokens and print their keys (shown this once; `reveal` shows them again)",
      "tollgate token add --user alice --name laptop --quota 5000000 --expires 2026-12-31",
    ),
  )
    .option("--count <n>", "create several alike (1 to 100)", integer(1, 100))
    .action(
      action(async (flags: TokenFlags & { count?: number }) =>
        asOwner(flags.user, async (ctx, owner) => {
          const created = await createTokens(ctx, owner, { ...inputOf(flags), count: flags.count });
          emit(created, flags.json, () => say(created.keys.join("\n")));
        }),
      ),
    );

  fieldOptions(
    tokenCommand(
      token,
      "edit <token>",
      "change a token; options left out keep their values",
      "tollgate token edit laptop --user alice --quota 1000000 --models gpt-4o",
    ),
  ).action(
    action(async (ref: string, flags: TokenFlags) =>
      asOwner(flags.user, async (ctx, owner) => {
        const updated = await updateToken(
          ctx,
          owner,
          { ...inputOf(flags), id: await tokenIdOf(ctx, owner, ref) },
          false,
        );
        emit(updated, flags.json, () => say(`updated token ${updated.name} (id ${updated.id})`));
      }),
    ),
  );

  for (const [name, status] of [
    ["enable", TokenStatus.Enabled],
    ["disable", TokenStatus.Disabled],
  ] as const) {
    tokenCommand(token, `${name} <token>`, `${name} a token`, `tollgate token ${name} laptop --user alice`).action(
      action(async (ref: string, flags: TokenFlags) =>
        asOwner(flags.user, async (ctx, owner) => {
          const updated = await updateToken(ctx, owner, { id: await tokenIdOf(ctx, owner, ref), status }, true);
          emit(updated, flags.json, () =>
            say(`token ${updated.name} (id ${updated.id}): ${nameOf(TOKEN_STATUS_NAMES, updated.status)}`),
          );
        }),
      ),
    );
  }

  forUser(
    sub(
      token,
      "delete <token>",
      "delete a token; its key stops working at once",
      "tollgate token delete laptop --user alice",
    ),
  ).action(
    action(async (ref: string, flags: TokenFlags) =>
      asOwner(flags.user, async (ctx, owner) => {
        await deleteToken(ctx, owner, await tokenIdOf(ctx, owner, ref));
        say(`deleted token ${ref}`);
      }),
    ),
  );

  tokenCommand(
    token,
    "reveal <token>",
    "print a token's whole key",
    "tollgate token reveal laptop --user alice",
  ).action(
    action(async (ref: string, flags: TokenFlags) =>
      asOwner(flags.user, async (ctx, owner) => {
        const id = await tokenIdOf(ctx, owner, ref);
        const key = await revealKey(ctx, owner, id);
        emit({ id, key }, flags.json, () => say(key));
      }),
    ),
  );
}
