/** A user as the admin routes return it. */
export interface AdminUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  remark: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  DeletedAt: number | null;
}

export type ManageAction = "promote" | "demote" | "enable" | "disable" | "delete";

export const isDeleted = (user: Pick<AdminUser, "DeletedAt">) => Boolean(user.DeletedAt);

/** The spec's availability: nothing for a deleted user; disable when active, enable otherwise but never at status 3. */
export function offeredActions(user: AdminUser): ManageAction[] {
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
