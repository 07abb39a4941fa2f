import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { columnsFor, type PagedColumns } from "../../../../components/table/paged-table";
import type { PriceRow } from "./price-rows";

const column = columnsFor<PriceRow>();
const shown = (n: number | undefined) => (n === undefined ? "-" : String(n));

export function usePriceColumns(
  onEdit: (row: PriceRow) => void,
  onDelete: (row: PriceRow) => void,
): PagedColumns<PriceRow> {
  const { t, i18n } = useLingui();
  return useMemo(
    () =>
      column.columns([
        column.accessor("name", { header: t`Model name` }),
        column.display({ id: "price", header: t`Fixed price`, cell: ({ row }) => shown(row.original.price) }),
        column.display({ id: "ratio", header: t`Model ratio`, cell: ({ row }) => shown(row.original.ratio) }),
        column.display({
          id: "completion",
          header: t`Completion ratio`,
          cell: ({ row }) => shown(row.original.completionRatio),
        }),
        column.display({
          id: "actions",
          header: t`Actions`,
          cell: ({ row }) => (
            <div className="flex gap-1">
              <button type="button" className="btn btn-xs" onClick={() => onEdit(row.original)}>
                <Trans>Edit</Trans>
              </button>
              <button type="button" className="btn btn-xs btn-error" onClick={() => onDelete(row.original)}>
                <Trans>Delete</Trans>
              </button>
            </div>
          ),
        }),
      ]),
    [i18n.locale, onEdit, onDelete],
  );
}
