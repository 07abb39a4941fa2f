import { plural, t } from "@lingui/core/macro";
import { Box, useInput } from "ink";
import { useState } from "react";
import { listUsers } from "../../service/users/admin";
import { manageUser } from "../../service/users/admin-manage";
import type { UserView } from "../../service/users/dto";
import { Role, UserStatus } from "../../shared/constants";
import { useTui } from "./context";
import { currencySymbolOf, quotaFromAmount } from "../../shared/quota-format";
import { quotaDisplayFor } from "../../service/quota-text";
import { countOf, quotaOf } from "./format";
import type { KeyHelp } from "./help-bar";
import { ListFooter } from "./list-footer";
import { usePagedList } from "./paged-list";
import { Table, type Column } from "./table";

export const userKeys = (): KeyHelp[] => [
  ["/", t`search`],
  ["e", t`enable`],
  ["d", t`disable`],
  ["a", t`add quota`],
  ["+", t`promote`],
  ["-", t`demote`],
];

const roleText = (role: number): string => (role >= Role.Root ? t`Root` : role >= Role.Admin ? t`Admin` : t`User`);
const statusText = (u: UserView): string =>
  u.DeletedAt ? t`Deleted` : u.status === UserStatus.Enabled ? t`Enabled` : t`Disabled`;
const statusColor = (u: UserView): string => (u.DeletedAt ? "gray" : u.status === UserStatus.Enabled ? "green" : "red");

/** "-1.5" subtracts, "1.5" adds, in the site's currency (or units): the add_quota action's value and mode. */
const quotaChangeOf = (quota: number) =>
  quota < 0 ? { value: String(-quota), mode: "subtract" } : { value: String(quota), mode: "add" };

const AMOUNT = /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/;

/** Users, newest first: search, enable, disable and demote (after y), add quota, promote; the API's rules decide. */
export function UsersScreen() {
  const { ctx, actor, height, active, ask, run } = useTui();
  const [keyword, setKeyword] = useState("");
  const list = usePagedList(
    (page, pageSize) => listUsers(ctx, actor, { keyword: keyword || undefined, page, pageSize }),
    keyword,
    Math.max(height - 2, 1),
  );
  const { page, pages, total } = list;

  const columns: Column<UserView>[] = [
    { header: "ID", width: 6, right: true, value: (u) => u.id },
    { header: t`Username`, grow: true, value: (u) => u.username },
    { header: t`Role`, width: 6, value: (u) => roleText(u.role) },
    { header: t`Status`, width: 8, value: statusText, color: statusColor },
    { header: t`Group`, width: 10, value: (u) => u.group },
    { header: t`Balance`, width: 10, right: true, value: (u) => quotaOf(ctx, u.quota) },
    { header: t`Used`, width: 10, right: true, value: (u) => quotaOf(ctx, u.used_quota) },
    { header: t`Requests`, width: 8, right: true, value: (u) => countOf(u.request_count) },
  ];

  /** One manage action, as POST /api/user/manage; then the page is read again. */
  const manage = (u: UserView, action: string, done: string, extra: Record<string, unknown> = {}) =>
    void run(() =>
      manageUser(ctx, actor, { id: u.id, action, ...extra })
        .then(() => done)
        .finally(list.reload),
    );

  /** The amount is typed as the site shows money ($ or ¥, or raw units when it shows tokens). */
  const addQuota = (u: UserView, name = u.username) => {
    const display = quotaDisplayFor(ctx);
    const unit = currencySymbolOf(display) ?? t`units`;
    const quota = (text: string) => (AMOUNT.test(text) ? quotaFromAmount(Number(text), display) : Number.NaN);
    ask({
      kind: "input",
      label: t`Add to ${name}'s balance (${unit}, - subtracts):`,
      hint: (text) => (AMOUNT.test(text) ? t`= ${quota(text)} units` : ""),
      onSubmit: (text) => {
        const change = quota(text);
        const amount = quotaOf(ctx, change);
        // Text that is no amount goes to the service as typed, which refuses it with its reason.
        const extra = Number.isNaN(change) ? { value: text.trim(), mode: "add" } : quotaChangeOf(change);
        manage(u, "add_quota", t`Quota of ${name} changed by ${amount}`, extra);
      },
    });
  };

  useInput(
    (input, key) => {
      if (list.onKey(key)) return;
      if (input === "/")
        ask({
          kind: "input",
          label: t`Search (id, name, email):`,
          initial: keyword,
          onSubmit: (text) => setKeyword(text.trim()),
        });
      const user = list.selected();
      if (!user) return;
      const name = user.username;
      if (input === "e") manage(user, "enable", t`User ${name} enabled`);
      else if (input === "d")
        ask({
          kind: "confirm",
          question: t`Disable user ${name} and sign them out?`,
          onYes: () => manage(user, "disable", t`User ${name} disabled`),
        });
      else if (input === "a") addQuota(user);
      else if (input === "+") manage(user, "promote", t`${name} is now an administrator`);
      else if (input === "-")
        ask({
          kind: "confirm",
          question: t`Demote ${name} to an ordinary user?`,
          onYes: () => manage(user, "demote", t`${name} is now an ordinary user`),
        });
    },
    { isActive: active },
  );

  return (
    <Box flexDirection="column" flexGrow={1}>
      <Table columns={columns} rows={list.items} rowKey={(u) => u.id} cursor={list.cursor} empty={t`No users match.`} />
      <Box flexGrow={1} />
      <ListFooter
        list={list}
        filter={keyword}
        summary={t`Page ${page}/${pages}, ${plural(total, { one: "# user", other: "# users" })}`}
      />
    </Box>
  );
}
