import type { UserRow } from "../../db/schema";
import { Role, UserStatus } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { isRoot, manageableUser, requireAdmin } from "./admin-access";
import { applyChange, type UserChange } from "./admin-change";
import { idOf, integerOf, type Input } from "../input";
import { reloadUser } from "./self";

type Action = (actor: UserRow, target: UserRow, input: Input) => UserChange;

const UNKNOWN_ACTION = "unknown action, expected one of promote, demote, disable, enable, delete, add_quota";

const refuseIfRoot = (target: UserRow, verb: string): void => {
  if (isRoot(target)) refuse(`the super administrator cannot be ${verb}`);
};

function quotaDeltaOf(target: UserRow, input: Input): number {
  const value = integerOf(input.value, "value");
  const mode = input.mode ?? "add";
  if (mode === "override") return value - target.quota;
  if (mode !== "add" && mode !== "subtract") refuse("mode must be add, subtract or override");
  if (value <= 0) refuse("value must be a positive integer");
  return mode === "add" ? value : -value;
}

/** Each action's own rules; who may reach the target at all is checked before. */
const ACTIONS = new Map<string, Action>([
  [
    "promote",
    (actor, target) => {
      if (!isRoot(actor)) refuse("only the super administrator can promote users");
      if (target.role >= Role.Admin) refuse("the user is already an administrator");
      return { patch: { role: Role.Admin } };
    },
  ],
  [
    "demote",
    (actor, target) => {
      refuseIfRoot(target, "demoted");
      if (target.role < Role.Admin) refuse("the user is already an ordinary user");
      if (!isRoot(actor)) refuse("only the super administrator can demote administrators");
      return { patch: { role: Role.Common } };
    },
  ],
  [
    "disable",
    (_actor, target) => {
      refuseIfRoot(target, "disabled");
      return { patch: { status: UserStatus.Disabled, access_token_hash: null }, signOut: true };
    },
  ],
  ["enable", () => ({ patch: { status: UserStatus.Enabled } })],
  [
    "delete",
    (_actor, target) => {
      refuseIfRoot(target, "deleted");
      return { patch: { deleted_at: nowSeconds(), access_token_hash: null }, signOut: true };
    },
  ],
  ["add_quota", (_actor, target, input) => ({ patch: {}, quotaDelta: quotaDeltaOf(target, input) })],
]);

/** POST /api/user/manage: one action on one user; answers the user's status and role afterwards. */
export async function manageUser(
  ctx: ServiceContext,
  actor: UserRow,
  input: Input,
): Promise<{ status: number; role: number }> {
  requireAdmin(actor);
  const id = idOf(input.id);
  const action = (typeof input.action === "string" && ACTIONS.get(input.action)) || refuse(UNKNOWN_ACTION);
  const target = await manageableUser(ctx, actor, id);
  await applyChange(ctx, actor, target, action(actor, target, input));
  const after = await reloadUser(ctx, id);
  return { status: after.status, role: after.role };
}
