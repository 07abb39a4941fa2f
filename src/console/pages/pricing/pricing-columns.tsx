import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import type { PricingRow } from "../../../shared/views/pricing";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { showMoney } from "../../state/status";
import { priceOf, ratioBadge } from "./pricing";
import { priceLines, type PriceUnit } from "./price-text";

const column = columnsFor<PricingRow>();

interface PricingColumnsOptions {
  group: string;
  groupRatio: number;
  usable: ReadonlySet<string>;
  unit: PriceUnit;
  quotaPerUnit: number;
}

/** Model, billing type, the groups serving it, its ratios and its price in the chosen group. */
export function usePricingColumns({
  group,
  groupRatio,
  usable,
  unit,
  quotaPerUnit,
}: PricingColumnsOptions): PagedColumns<PricingRow> {
  const { t, i18n } = useLingui();
  return useMemo(
    () =>
      column.columns([
        column.display({
          id: "model",
          header: t`Model`,
          cell: ({ row }) => <span className="font-medium whitespace-nowrap">{row.original.model_name}</span>,
        }),
        column.display({
          id: "billing",
          header: t`Billing`,
          cell: ({ row }) => (
            <span className="badge badge-sm badge-outline whitespace-nowrap">
              {row.original.quota_type === 1 ? t`Per call` : t`Per token`}
            </span>
          ),
        }),
        column.display({
          id: "groups",
          header: t`Available groups`,
          cell: ({ row }) => (
            <div className="flex flex-wrap gap-1" data-testid="model-groups">
              {row.original.enable_groups.map((name) => (
                <span
                  key={name}
                  className={`badge badge-sm ${name === group ? "badge-primary" : usable.has(name) ? "badge-outline" : "badge-ghost opacity-60"}`}
                >
                  {name}
                </span>
              ))}
            </div>
          ),
        }),
        column.display({
          id: "ratios",
          header: t`Ratios`,
          cell: ({ row }) =>
            row.original.quota_type === 1 ? (
              <span className="opacity-60">—</span>
            ) : (
              <div className="text-xs whitespace-nowrap">
                <div>
                  {t`Model ratio`}: {row.original.model_ratio}
                </div>
                <div>
                  {t`Completion ratio`}: {row.original.completion_ratio}
                </div>
              </div>
            ),
        }),
        column.display({
          id: "group_ratio",
          header: t`Group ratio`,
          cell: () => (
            <span className={`badge badge-sm ${ratioBadge(groupRatio)}`} data-testid="group-ratio">
              {groupRatio}x
            </span>
          ),
        }),
        column.display({
          id: "price",
          header: t`Price`,
          cell: ({ row }) => {
            const lines = priceLines(priceOf(row.original, groupRatio), unit, quotaPerUnit, showMoney);
            if (!row.original.enable_groups.includes(group))
              return <span className="opacity-60">{t`Not available in this group`}</span>;
            return (
              <div className="text-xs whitespace-nowrap" data-testid="price">
                {lines.call !== undefined && <div>{t`${lines.call} per call`}</div>}
                {lines.input !== undefined && <div>{t`Input ${lines.input} / 1M tokens`}</div>}
                {lines.output !== undefined && <div>{t`Output ${lines.output} / 1M tokens`}</div>}
              </div>
            );
          },
        }),
      ]),
    [i18n.locale, group, groupRatio, usable, unit, quotaPerUnit],
  );
}
