import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useState, type FormEvent } from "react";
import { PAGE_SIZE_CHOICES } from "../../../shared/constants";
import type { UserView } from "../../../shared/views/user";
import { SidePanel } from "../../components/SidePanel";
import { DataTable } from "../../components/table/DataTable";
import { useServerPage } from "../../components/table/use-server-page";
import { useApiData } from "../../use-api-data";
import { userListUrl } from "./admin-user";
import { AddUserPanel } from "./AddUserPanel";
import { EditUserForm } from "./EditUserForm";
import { useUserColumns } from "./user-columns";

export default function UsersPage() {
  const { t } = useLingui();
  const groups = useApiData<string[]>("/api/group/");
  const [draft, setDraft] = useState({ keyword: "", group: "" });
  const [filter, setFilter] = useState(draft);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserView | null>(null);
  const page = useServerPage<UserView>((p, size) => userListUrl(filter.keyword, filter.group, p, size));
  const { patchRow } = page;
  const onChanged = useCallback(
    (user: UserView) =>
      patchRow(
        (row) => row.id === user.id,
        () => user,
      ),
    [patchRow],
  );
  const columns = useUserColumns(onChanged, setEditing);

  const search = (e: FormEvent) => {
    e.preventDefault();
    page.firstPage();
    setFilter({ keyword: draft.keyword.trim(), group: draft.group });
  };
  const closeAndReload = () => {
    setAdding(false);
    setEditing(null);
    void page.reload();
  };

  return (
    <div className="flex flex-col gap-3" data-testid="users-page">
      <form onSubmit={search} className="flex flex-wrap gap-2 items-end">
        <input
          className="input w-64 max-tablet:w-full"
          name="keyword"
          placeholder={t`Search by ID, username, display name or email`}
          value={draft.keyword}
          onChange={(e) => setDraft({ ...draft, keyword: e.currentTarget.value })}
        />
        <select
          className="select w-40"
          name="group"
          aria-label={t`Group`}
          value={draft.group}
          onChange={(e) => setDraft({ ...draft, group: e.currentTarget.value })}
        >
          <option value="">{t`All groups`}</option>
          {(groups.data ?? []).map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
        <button type="submit" className="btn">
          <Trans>Search</Trans>
        </button>
        <button type="button" className="btn btn-primary" data-testid="add-user" onClick={() => setAdding(true)}>
          <Trans>Add user</Trans>
        </button>
      </form>
      <DataTable
        columns={columns}
        rows={page.rows}
        total={page.total}
        pagination={page.pagination}
        onPagination={page.onPagination}
        rowId={(u) => String(u.id)}
        pageSizes={PAGE_SIZE_CHOICES}
        testId="users-table"
      />
      {adding && <AddUserPanel onClose={() => setAdding(false)} onCreated={closeAndReload} />}
      {editing && (
        <SidePanel title={<Trans>Edit user</Trans>} onClose={() => setEditing(null)}>
          <EditUserForm id={editing.id} onSaved={closeAndReload} onCancel={() => setEditing(null)} />
        </SidePanel>
      )}
    </div>
  );
}
