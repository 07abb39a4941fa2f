import { findUserById } from "../../db/queries/users";
import type { UserRow } from "../../db/schema";
import { Role } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";

export const NO_PERMISSION = "no permission for a user of equal or higher role";
export const USER_DELETED = "the user has been deleted";

export const isRoot = (user: UserRow): boolean => user.role >= Role.Root;

/** The same refusal the HTTP auth gives, so the CLI and TUI cannot bypass it either. */
export function requireAdmin(actor: UserRow): void {
  if (actor.role < Role.Admin) refuse("Unauthorized, insufficient privileges");
}

/** Admins reach only users of a lower role; root reaches anyone (each destructive action guards root itself). */
export function refuseUnlessOutranks(actor: UserRow, target: UserRow): void {
  if (!isRoot(actor) && actor.role <= target.role) refuse(NO_PERMISSION);
}

/** A user the actor may see, deleted or not. */
export async function visibleUser(ctx: ServiceContext, actor: UserRow, id: number): Promise<UserRow> {
  requireAdmin(actor);
  const target = (await findUserById(ctx.db, id)) ?? notFound("user");
  refuseUnlessOutranks(actor, target);
  return target;
}

/** A live user the actor may change; a deleted user is final. */
export async function manageableUser(ctx: ServiceContext, actor: UserRow, id: number): Promise<UserRow> {
  const target = await visibleUser(ctx, actor, id);
  return target.deleted_at === null ? target : refuse(USER_DELETED);
}
