import { isEmailTaken, isUsernameTaken } from "../../db/queries/users";
import type { UserPatch, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse, ServiceError } from "../errors";
import { groupNames } from "../groups";
import { manageableUser, requireAdmin } from "./admin-access";
import { applyChange } from "./admin-change";
import { idOf, integerOf, limitOf, textOf, withinLength, type Input } from "../input";
import { displayNameOf, emailOf } from "./admin-input";
import { checkNewUsername, checkUsername, refuseLookAlike } from "./create";
import { usernameKey } from "./names";
import { toUserView, type UserView } from "./dto";
import { checkPasswordRules, hashPassword } from "./password";
import { reloadUser } from "./self";

interface UserEdit {
  patch: UserPatch;
  /** Only a non-empty password changes it. */
  password?: string;
  /** The new balance, absolute. */
  quota?: number;
}

/** Type and length checks of the editable fields; nothing here needs the database. */
function readEdit(input: Input): UserEdit {
  const patch: UserPatch = {};
  const text = (name: string, read: (value: string) => unknown) => {
    const value = textOf(input, name);
    if (value !== undefined) Object.assign(patch, { [name]: read(value) });
  };
  text("username", checkUsername);
  text("display_name", displayNameOf);
  text("email", emailOf);
  text("group", (group) => withinLength(group.trim(), 64, "group") || refuse("group must not be empty"));
  text("remark", (remark) => withinLength(remark.trim(), 255, "remark"));
  const password = textOf(input, "password") || undefined;
  if (password) checkPasswordRules(password);
  const quota = input.quota === undefined || input.quota === null ? undefined : integerOf(input.quota, "quota");
  for (const name of ["rpm_limit", "tpm_limit"] as const) {
    if (input[name] !== undefined && input[name] !== null) patch[name] = limitOf(input[name], name);
  }
  return { patch, password, quota };
}

/** Role and status change only through manage, where their own rules apply. */
function refuseRoleOrStatus(input: Input, target: UserRow): void {
  if (input.role != null && input.role !== target.role) refuse("use promote or demote to change the role");
  if (input.status != null && input.status !== target.status) refuse("use enable or disable to change the status");
}

/** A new name is checked as a new user's would be; the current one, even if it predates those rules, stays. */
async function refuseTaken(ctx: ServiceContext, target: UserRow, patch: UserPatch): Promise<void> {
  const { username, email } = patch;
  if (username !== undefined && username !== target.username) {
    checkNewUsername(username);
    if (await isUsernameTaken(ctx.db, username)) refuse("username already exists or has been deleted");
    await refuseLookAlike(ctx.db, usernameKey(username), target.id);
    patch.username_key = usernameKey(username);
  }
  if (email && email !== target.email && (await isEmailTaken(ctx.db, email, target.id)))
    refuse("email is already in use");
}

function refuseUnknownGroup(ctx: ServiceContext, target: UserRow, group: string | undefined): void {
  if (group !== undefined && group !== target.group && !groupNames(ctx).includes(group)) {
    refuse(`group ${group} does not exist`);
  }
}

/**
 * PUT /api/user/: edits another user. The quota is the new balance; the difference is added and logged.
 * A new password signs the user out everywhere, access token included.
 */
export async function updateUserAsAdmin(ctx: ServiceContext, actor: UserRow, input: Input): Promise<UserView> {
  requireAdmin(actor);
  const id = idOf(input.id);
  const { patch, password, quota } = readEdit(input);
  const target = await manageableUser(ctx, actor, id);
  refuseRoleOrStatus(input, target);
  if (Object.keys(patch).length === 0 && password === undefined && quota === undefined) refuse("nothing to update");
  refuseUnknownGroup(ctx, target, patch.group as string | undefined);
  if (patch.display_name === "") patch.display_name = patch.username ?? target.username;
  await refuseTaken(ctx, target, patch);
  if (password) Object.assign(patch, { password: await hashPassword(password), access_token_hash: null });
  const quotaDelta = quota === undefined ? 0 : quota - target.quota;
  try {
    await applyChange(ctx, actor, target, { patch, quotaDelta, signOut: password !== undefined });
  } catch (error) {
    if (!(error instanceof ServiceError)) await refuseTaken(ctx, target, patch);
    throw error;
  }
  return toUserView(await reloadUser(ctx, id));
}
