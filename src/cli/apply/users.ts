import type { UserRow } from "../../service/users/directory";
import type { ServiceContext } from "../../service/context";
import { randomAlphanumeric } from "../../service/crypto";
import { refuse } from "../../service/errors";
import { createUserAsAdmin, listUsers } from "../../service/users/admin";
import { manageableUser } from "../../service/users/admin-access";
import { integerOf, withinLength } from "../../service/input";
import { displayNameOf, emailOf } from "../../service/users/admin-input";
import { manageUser } from "../../service/users/admin-manage";
import { updateUserAsAdmin } from "../../service/users/admin-update";
import { checkUsername } from "../../service/users/create";
import type { UserView } from "../../service/users/dto";
import { checkPasswordRules, verifyPassword } from "../../service/users/password";
import { Role, UserStatus } from "../../shared/constants";
import { allPages } from "../lookup";
import { ROLE_NAMES, USER_STATUS_NAMES, nameOf, numberNamed } from "../names";
import { checkEntries, keyText } from "./document";
import { at, changedOnly, defined, diff, step, type Change, type Entry, type Planner, type Step } from "./plan";

const RULES = {
  fields: ["username", "password", "display_name", "email", "role", "status", "group", "quota", "remark"],
  key: ["username"],
} as const;

const text = (value: unknown, field: string): string | undefined =>
  value === undefined ? undefined : typeof value === "string" ? value : refuse(`${field} must be text`);

function wordOf(names: Record<number, string>, value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  return numberNamed(names, String(value)) ?? refuse(`${field} must be one of ${Object.values(names).join(", ")}`);
}

/** The entry checked by the services' own field rules, in the stored shape. */
function desiredOf(entry: Entry) {
  const username = checkUsername(String(entry.username));
  const display = text(entry.display_name, "display_name");
  const email = text(entry.email, "email");
  const group = text(entry.group, "group");
  const remark = text(entry.remark, "remark");
  const password = text(entry.password, "password");
  if (password !== undefined) checkPasswordRules(password);
  return {
    fields: defined({
      display_name: display === undefined ? undefined : displayNameOf(display) || username,
      email: email === undefined ? undefined : (emailOf(email) ?? ""),
      group: group === undefined ? undefined : withinLength(group.trim(), 64, "group"),
      remark: remark === undefined ? undefined : withinLength(remark.trim(), 255, "remark"),
      quota: entry.quota === undefined ? undefined : integerOf(entry.quota, "quota"),
      role: wordOf(ROLE_NAMES, entry.role, "role"),
      status: wordOf(USER_STATUS_NAMES, entry.status, "status"),
    }),
    username,
    password,
  };
}

/** Role and status change through promote/demote and enable/disable, with their own rules. */
function manageActions(changes: Change[]): string[] {
  const actions: string[] = [];
  for (const change of changes) {
    if (change.field === "role") {
      if (change.to === Role.Root || change.from === Role.Root) refuse("apply cannot give or take the root role");
      actions.push(change.to === Role.Admin ? "promote" : "demote");
    }
    if (change.field === "status") actions.push(change.to === UserStatus.Disabled ? "disable" : "enable");
  }
  return actions;
}

async function changeUser(
  ctx: ServiceContext,
  root: UserRow,
  id: number,
  edit: Record<string, unknown>,
  actions: string[],
) {
  if (Object.keys(edit).length > 0) await updateUserAsAdmin(ctx, root, { id, ...edit });
  for (const action of actions) await manageUser(ctx, root, { id, action });
}

async function planUser({ ctx, root }: Planner, entry: Entry, existing: Map<string, UserView>): Promise<Step> {
  const { fields, username, password } = desiredOf(entry);
  const current = existing.get(username);
  if (!current) {
    if (fields.role === Role.Root) refuse("apply cannot create a root user");
    const actions = [
      fields.role === Role.Admin && "promote",
      fields.status === UserStatus.Disabled && "disable",
    ].filter((a) => a !== false);
    const note =
      password === undefined ? "no password given: a random one is set (tollgate user set-password)" : undefined;
    return step(
      "user",
      username,
      "create",
      [],
      async () => {
        const { id } = await createUserAsAdmin(ctx, root, {
          username,
          password: password ?? randomAlphanumeric(20),
          display_name: fields.display_name,
        });
        const { display_name: _set, role: _role, status: _status, ...edit } = fields;
        await changeUser(ctx, root, id, edit, actions);
      },
      note,
    );
  }
  if (current.DeletedAt) refuse("the username belongs to a deleted user");
  const row = await manageableUser(ctx, root, current.id);
  const changes = diff(fields, current as unknown as Entry);
  if (password !== undefined && !(await verifyPassword(password, row.password))) changes.push({ field: "password" });
  const actions = manageActions(changes);
  const edit = changedOnly(
    { ...fields, password },
    changes.filter((c) => c.field !== "role" && c.field !== "status"),
  );
  return step("user", username, "update", changes, () => changeUser(ctx, root, current.id, edit, actions));
}

export const allUsers = (planner: Planner) =>
  allPages((page, pageSize) => listUsers(planner.ctx, planner.root, { page, pageSize }));

/** Users by username; fields left out are not managed, and apply never deletes a user. */
export async function planUsers(planner: Planner, entries: Entry[]): Promise<Step[]> {
  checkEntries("users", entries, RULES);
  const existing = new Map((await allUsers(planner)).map((user) => [user.username, user]));
  const steps: Step[] = [];
  for (const entry of entries)
    steps.push(await at(`users "${keyText(entry, RULES.key)}"`, () => planUser(planner, entry, existing)));
  return steps;
}

/** Users in the file's shape; passwords cannot be exported (only their hashes are kept). */
export function exportUsers(users: UserView[]): Entry[] {
  return users.map((user) =>
    defined({
      username: user.username,
      display_name: user.display_name,
      email: user.email || undefined,
      role: nameOf(ROLE_NAMES, user.role),
      status: nameOf(USER_STATUS_NAMES, user.status),
      group: user.group,
      quota: user.quota,
      remark: user.remark || undefined,
    }),
  );
}
