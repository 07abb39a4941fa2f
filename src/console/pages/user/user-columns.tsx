import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import type { UserView } from "../../../shared/views/user";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { showQuota } from "../../state/status";
import { UserActions } from "./UserActions";
import { useUserLabels } from "./use-user-labels";

const column = columnsFor<UserView>();

export function useUserColumns(
  onChanged: (user: UserView) => void,
  onEdit: (user: UserView) => void,
): PagedColumns<UserView> {
  const { t, i18n } = useLingui();
  const labels = useUserLabels();
  return useMemo(
    () =>
      column.columns([
        column.accessor("id", { header: "ID" }),
        column.display({
          id: "name",
          header: t`Username`,
          cell: ({ row }) => (
            <div>
              <div className="font-medium">{row.original.username}</div>
              <div className="text-xs opacity-60">{row.original.display_name}</div>
            </div>
          ),
        }),
        column.accessor("group", { header: t`Group` }),
        column.display({
          id: "quota",
          header: t`Statistics`,
          cell: ({ row }) => (
            <div className="flex flex-wrap gap-1">
              <span className="badge badge-sm" title={t`Remaining quota`}>
                {showQuota(row.original.quota)}
              </span>
              <span className="badge badge-sm badge-outline" title={t`Used quota`}>
                {showQuota(row.original.used_quota)}
              </span>
              <span className="badge badge-sm badge-ghost" title={t`Requests`}>
                {row.original.request_count}
              </span>
            </div>
          ),
        }),
        column.display({
          id: "role",
          header: t`Role`,
          cell: ({ row }) => <span data-testid="role">{labels.role(row.original.role)}</span>,
        }),
        column.display({
          id: "status",
          header: t`Status`,
          cell: ({ row }) => (
            <span
              data-testid="status"
              className={`badge badge-sm ${row.original.DeletedAt ? "badge-neutral" : row.original.status === 1 ? "badge-success" : "badge-error"}`}
            >
              {labels.status(row.original)}
            </span>
          ),
        }),
        column.display({
          id: "actions",
          header: t`Actions`,
          cell: ({ row }) => <UserActions user={row.original} onChanged={onChanged} onEdit={onEdit} />,
        }),
      ]),
    [i18n.locale, onChanged, onEdit],
  );
}
