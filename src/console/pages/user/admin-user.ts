import type { UserView } from "../../../shared/views/user";

export type ManageAction = "promote" | "demote" | "enable" | "disable" | "delete";

export const isDeleted = (user: Pick<UserView, "DeletedAt">) => Boolean(user.DeletedAt);

/** The spec's availability: nothing for a deleted user; disable when active, enable otherwise but never at status 3. */
export function offeredActions(user: UserView): ManageAction[] {
  if (isDeleted(user)) return [];
  const actions: ManageAction[] = ["promote", "demote"];
  if (user.status === 1) actions.push("disable");
  else if (user.status !== 3) actions.push("enable");
  actions.push("delete");
  return actions;
}

export function userListUrl(keyword: string, group: string, page: number, size: number): string {
  const search = new URLSearchParams({ p: String(page), page_size: String(size) });
  if (!keyword && !group) return `/api/user/?${search}`;
  search.set("keyword", keyword);
  search.set("group", group);
  return `/api/user/search?${search}`;
}
