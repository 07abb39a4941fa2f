import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { DateTime } from "../../date-time";
import { showQuota } from "../../state/status";
import { RedemptionStatus, type Redemption } from "./redemption-api";
import { RedemptionActions, type RedemptionRowHandlers } from "./RedemptionActions";

const column = columnsFor<Redemption>();

const STATUS_BADGE: Record<number, string> = {
  [RedemptionStatus.Unused]: "badge-success",
  [RedemptionStatus.Disabled]: "badge-error",
  [RedemptionStatus.Used]: "badge-neutral",
};

export function useRedemptionColumns(handlers: RedemptionRowHandlers): PagedColumns<Redemption> {
  const { t, i18n } = useLingui();
  return useMemo(() => {
    const labels: Record<number, string> = {
      [RedemptionStatus.Unused]: t`Unused`,
      [RedemptionStatus.Disabled]: t`Disabled`,
      [RedemptionStatus.Used]: t`Used`,
    };
    return column.columns([
      column.accessor("id", { header: "ID" }),
      column.accessor("name", { header: t`Name` }),
      column.display({
        id: "status",
        header: t`Status`,
        cell: ({ row }) => (
          <span
            className={`badge badge-sm whitespace-nowrap ${STATUS_BADGE[row.original.status] ?? "badge-ghost"}`}
            data-testid="status"
            data-status={row.original.status}
          >
            {labels[row.original.status] ?? t`Unknown status`}
          </span>
        ),
      }),
      column.display({ id: "quota", header: t`Quota`, cell: ({ row }) => showQuota(row.original.quota) }),
      column.display({
        id: "created",
        header: t`Created`,
        cell: ({ row }) => <DateTime seconds={row.original.created_time} />,
      }),
      column.display({
        id: "redeemer",
        header: t`Redeemed by`,
        cell: ({ row }) => row.original.used_user_id || t`Nobody`,
      }),
      column.display({
        id: "actions",
        header: t`Actions`,
        cell: ({ row }) => <RedemptionActions code={row.original} {...handlers} />,
      }),
    ]);
  }, [i18n.locale, handlers]);
}
