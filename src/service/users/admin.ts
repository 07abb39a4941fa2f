import { pageUsers } from "../../db/queries/users";
import type { UserRow } from "../../db/schema";
import { Role } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { requireAdmin, visibleUser } from "./admin-access";
import { idOf, textOf, type Input } from "../input";
import { displayNameOf } from "./admin-input";
import { createUser } from "./create";
import { toUserView, type UserView } from "./dto";
import { reloadUser } from "./self";

export interface UserListQuery {
  keyword?: string;
  group?: string;
  page: number;
  pageSize: number;
}

export interface UserPage {
  items: UserView[];
  page: number;
  page_size: number;
  total: number;
}

/** Every user, deleted ones included, newest first; filtered by keyword (id, names, email) and group. */
export async function listUsers(ctx: ServiceContext, actor: UserRow, query: UserListQuery): Promise<UserPage> {
  requireAdmin(actor);
  const { page, pageSize } = query;
  const { rows, total } = await pageUsers(ctx.db, {
    keyword: query.keyword,
    group: query.group,
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return { items: rows.map(toUserView), page, page_size: pageSize, total };
}

/** One user; an admin sees only users of a lower role, root sees anyone. */
export async function getUser(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<UserView> {
  requireAdmin(actor);
  return toUserView(await visibleUser(ctx, actor, idOf(id)));
}

/** A new ordinary user, by the registration rules but regardless of the registration switches. */
export async function createUserAsAdmin(ctx: ServiceContext, actor: UserRow, input: Input): Promise<UserView> {
  requireAdmin(actor);
  const username = textOf(input, "username") ?? "";
  const password = textOf(input, "password") ?? "";
  if (!username.trim() || !password) refuse("username and password are required");
  if (input.role != null && input.role !== Role.Common) refuse("new users are created as ordinary users");
  const displayName = displayNameOf(textOf(input, "display_name") ?? "");
  const id = await createUser(ctx.db, { username, password, display_name: displayName });
  return toUserView(await reloadUser(ctx, id));
}
