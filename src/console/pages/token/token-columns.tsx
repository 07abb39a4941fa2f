import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import type { TokenView } from "../../../shared/views/token";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { DateTime } from "../../date-time";
import { showQuota } from "../../state/status";
import { TokenStatus } from "./token-api";
import { TokenActions, type TokenRowHandlers } from "./TokenActions";

const column = columnsFor<TokenView>();

const STATUS_BADGE: Record<number, string> = {
  [TokenStatus.Enabled]: "badge-success",
  [TokenStatus.Disabled]: "badge-error",
  [TokenStatus.Expired]: "badge-warning",
  [TokenStatus.Exhausted]: "badge-neutral",
};

export function useTokenColumns(handlers: TokenRowHandlers): PagedColumns<TokenView> {
  const { t, i18n } = useLingui();
  return useMemo(() => {
    const statusLabel = (token: TokenView) =>
      ({
        [TokenStatus.Enabled]: token.model_limits_enabled ? t`Enabled (model limits)` : t`Enabled`,
        [TokenStatus.Disabled]: t`Disabled`,
        [TokenStatus.Expired]: t`Expired`,
        [TokenStatus.Exhausted]: t`Exhausted`,
      })[token.status] ?? t`Unknown status`;
    return column.columns([
      column.display({
        id: "name",
        header: t`Name`,
        cell: ({ row }) => (
          <div>
            <div className="font-medium">{row.original.name}</div>
            <div className="text-xs opacity-60 font-mono whitespace-nowrap" data-testid="masked-key">
              {row.original.key}
            </div>
          </div>
        ),
      }),
      column.display({
        id: "status",
        header: t`Status`,
        cell: ({ row }) => (
          <span
            className={`badge badge-sm whitespace-nowrap ${STATUS_BADGE[row.original.status] ?? "badge-ghost"}`}
            data-testid="status"
            data-status={row.original.status}
          >
            {statusLabel(row.original)}
          </span>
        ),
      }),
      column.display({
        id: "group",
        header: t`Group`,
        cell: ({ row }) => <span className="whitespace-nowrap">{row.original.group || t`The user's group`}</span>,
      }),
      column.display({
        id: "quota",
        header: t`Used / remaining`,
        cell: ({ row }) => (
          <div className="flex flex-col items-start gap-1">
            <span className="badge badge-sm badge-outline" title={t`Used quota`}>
              {showQuota(row.original.used_quota)}
            </span>
            <span
              className="badge badge-sm badge-ghost whitespace-nowrap"
              title={t`Remaining quota`}
              data-testid="remaining"
            >
              {row.original.unlimited_quota ? t`Unlimited` : showQuota(row.original.remain_quota)}
            </span>
          </div>
        ),
      }),
      column.display({
        id: "time",
        header: t`Created / expires`,
        cell: ({ row }) => (
          <div className="flex flex-col text-xs">
            <DateTime seconds={row.original.created_time} />
            <span className="opacity-70">
              {row.original.expired_time === -1 ? t`Never expires` : <DateTime seconds={row.original.expired_time} />}
            </span>
          </div>
        ),
      }),
      column.display({
        id: "actions",
        header: t`Actions`,
        cell: ({ row }) => <TokenActions token={row.original} {...handlers} />,
      }),
    ]);
  }, [i18n.locale, handlers]);
}
