import type { Command } from "commander";
import { createUserAsAdmin, getUser, listUsers } from "../../service/users/admin";
import { manageUser } from "../../service/users/admin-manage";
import { updateUserAsAdmin } from "../../service/users/admin-update";
import type { UserView } from "../../service/users/dto";
import { quotaDisplayFor, quotaText } from "../../service/quota-text";
import type { QuotaDisplay } from "../../shared/quota-format";
import { asRoot } from "../context";
import { jsonFlag, listing, readStdin, sub, type ListFlags } from "../define";
import { userIdOf } from "../lookup";
import { quotaColumn, withQuotaText } from "../quota-cells";
import { ROLE_NAMES, USER_STATUS_NAMES, nameOf, timeText } from "../names";
import { action, emit, integer, printPageFooter, printRecord, printTable, say, usage, type Column } from "../output";

const statusText = (user: UserView) => (user.DeletedAt ? "deleted" : nameOf(USER_STATUS_NAMES, user.status));

const columns = (display: QuotaDisplay): Column<UserView>[] => [
  { header: "ID", value: (u) => u.id, right: true },
  { header: "USERNAME", value: (u) => u.username },
  { header: "DISPLAY NAME", value: (u) => u.display_name },
  { header: "ROLE", value: (u) => nameOf(ROLE_NAMES, u.role) },
  { header: "STATUS", value: statusText },
  { header: "GROUP", value: (u) => u.group },
  quotaColumn("QUOTA", (u) => u.quota, display),
  quotaColumn("USED", (u) => u.used_quota, display),
];

const showUser = (user: UserView, display: QuotaDisplay, json?: boolean) =>
  emit(user, json, () =>
    printRecord({
      ...withQuotaText(user, ["quota", "used_quota"], display),
      role: nameOf(ROLE_NAMES, user.role),
      status: statusText(user),
      created_at: timeText(user.created_at),
      last_login_at: timeText(user.last_login_at),
    }),
  );

interface PasswordFlags {
  password?: string;
  passwordStdin?: boolean;
}

const passwordOptions = (command: Command) =>
  command
    .option("--password <password>", "the password (visible to other local users: prefer --password-stdin)")
    .option("--password-stdin", "read the password from stdin");

async function passwordOf(flags: PasswordFlags): Promise<string> {
  if (flags.passwordStdin) return readStdin();
  return flags.password ?? usage("give the password with --password or --password-stdin");
}

const ACTIONS: [string, string][] = [
  ["promote", "make an ordinary user an administrator"],
  ["demote", "make an administrator an ordinary user"],
  ["enable", "let a disabled user sign in and call the API again"],
  ["disable", "stop a user: signs them out and stops their tokens"],
  ["delete", "delete a user (soft: the username stays taken)"],
];

const manage = (ref: string, input: Record<string, unknown>, json?: boolean) =>
  asRoot(async (ctx, root) => {
    const id = await userIdOf(ctx, root, ref);
    const after = await manageUser(ctx, root, { id, ...input });
    emit({ id, ...after }, json, () =>
      say(
        input.action === "delete"
          ? `deleted user ${ref}`
          : `user ${ref}: role ${nameOf(ROLE_NAMES, after.role)}, status ${nameOf(USER_STATUS_NAMES, after.status)}`,
      ),
    );
  });

const update = (ref: string, input: Record<string, unknown>, json?: boolean) =>
  asRoot(async (ctx, root) => {
    const user = await updateUserAsAdmin(ctx, root, { id: await userIdOf(ctx, root, ref), ...input });
    emit(user, json, () => say(`updated user ${user.username} (id ${user.id})`));
  });

interface EditFlags {
  username?: string;
  displayName?: string;
  email?: string;
  group?: string;
  remark?: string;
  quota?: number;
  json?: boolean;
}

/** The subcommands of `tollgate user`. */
export function userCommands(user: Command): void {
  listing(
    sub(user, "list", "list users, newest first (deleted ones included)", "tollgate user list --group vip --json"),
  )
    .option("--keyword <text>", "matches the id, or part of the username, display name or email")
    .option("--group <group>", "only users of this group")
    .action(
      action(async (flags: ListFlags & { keyword?: string; group?: string }) =>
        asRoot(async (ctx, root) => {
          const page = await listUsers(ctx, root, {
            keyword: flags.keyword,
            group: flags.group,
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

  jsonFlag(sub(user, "show <user>", "show one user (by id or username)", "tollgate user show alice --json")).action(
    action(async (ref: string, flags: { json?: boolean }) =>
      asRoot(async (ctx, root) =>
        showUser(await getUser(ctx, root, await userIdOf(ctx, root, ref)), quotaDisplayFor(ctx), flags.json),
      ),
    ),
  );

  jsonFlag(
    passwordOptions(
      sub(
        user,
        "add <username>",
        "create an ordinary user",
        "echo 'secret-pass' | tollgate user add alice --password-stdin",
      ),
    ),
  )
    .option("--display-name <name>", "the display name (default: the username)")
    .action(
      action(async (username: string, flags: PasswordFlags & { displayName?: string; json?: boolean }) => {
        const password = await passwordOf(flags);
        await asRoot(async (ctx, root) => {
          const created = await createUserAsAdmin(ctx, root, { username, password, display_name: flags.displayName });
          emit(created, flags.json, () => say(`created user ${created.username} (id ${created.id})`));
        });
      }),
    );

  jsonFlag(
    sub(
      user,
      "edit <user>",
      "change a user's profile, group or balance",
      "tollgate user edit alice --group vip --quota 5000000",
    ),
  )
    .option("--username <name>", "a new username")
    .option("--display-name <name>", "a new display name")
    .option("--email <email>", "a new email (empty clears it)")
    .option("--group <group>", "a new group")
    .option("--remark <text>", "an administrator's note")
    .option("--quota <units>", "the new balance in quota units (500000 = 1 USD); the difference is logged", integer())
    .action(
      action(async (ref: string, flags: EditFlags) => {
        const { username, displayName: display_name, email, group: userGroup, remark, quota } = flags;
        await update(ref, { username, display_name, email, group: userGroup, remark, quota }, flags.json);
      }),
    );

  for (const [name, description] of ACTIONS) {
    jsonFlag(sub(user, `${name} <user>`, description, `tollgate user ${name} alice`)).action(
      action(async (ref: string, flags: { json?: boolean }) => manage(ref, { action: name }, flags.json)),
    );
  }

  jsonFlag(
    passwordOptions(
      sub(
        user,
        "set-password <user>",
        "set a user's password; signs them out everywhere",
        "tollgate user set-password alice --password-stdin < pass.txt",
      ),
    ),
  ).action(
    action(async (ref: string, flags: PasswordFlags & { json?: boolean }) =>
      update(ref, { password: await passwordOf(flags) }, flags.json),
    ),
  );

  jsonFlag(
    sub(
      user,
      "add-quota <user>",
      "add to (or subtract from, or set) a user's balance; logged",
      "tollgate user add-quota alice 500000",
      "tollgate user add-quota alice 1000 --mode subtract",
    ),
  )
    .argument("<units>", "quota units (500000 = 1 USD)", integer())
    .option("--mode <mode>", "add, subtract or override", "add")
    .action(
      action(async (ref: string, units: number, flags: { mode: string; json?: boolean }) =>
        asRoot(async (ctx, root) => {
          const id = await userIdOf(ctx, root, ref);
          await manageUser(ctx, root, { id, action: "add_quota", value: units, mode: flags.mode });
          const { quota } = await getUser(ctx, root, id);
          emit({ id, quota }, flags.json, () => say(`user ${ref}: balance ${quotaText(ctx, quota)}`));
        }),
      ),
    );
}
