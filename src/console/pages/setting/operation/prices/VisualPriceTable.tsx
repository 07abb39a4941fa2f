import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useState } from "react";
import { DataTable } from "../../../../components/table/DataTable";
import { toast } from "../../../../state/toasts";
import { usePriceColumns } from "./price-columns";
import { upsertRow, type PriceRow } from "./price-rows";
import { PriceRowDialog, type RowInput } from "./PriceRowDialog";

const PAGE_SIZE = 10;

/** The price maps as a searchable table paged by 10; every change goes back through `onRows`. */
export function VisualPriceTable({ rows, onRows }: { rows: PriceRow[]; onRows: (rows: PriceRow[]) => void }) {
  const { t } = useLingui();
  const [search, setSearch] = useState("");
  const [pageIndex, setPageIndex] = useState(0);
  const [dialog, setDialog] = useState<{ row?: PriceRow } | null>(null);
  const onEdit = useCallback((row: PriceRow) => setDialog({ row }), []);
  const onDelete = useCallback((row: PriceRow) => onRows(rows.filter((r) => r.name !== row.name)), [rows, onRows]);
  const columns = usePriceColumns(onEdit, onDelete);
  const matching = rows.filter((r) => r.name.toLowerCase().includes(search.trim().toLowerCase()));
  const page = matching.slice(pageIndex * PAGE_SIZE, (pageIndex + 1) * PAGE_SIZE);

  const submit = (input: RowInput) => {
    const next = upsertRow(rows, input, dialog?.row?.name);
    if (next === "duplicate") return toast.error(t`A model with this name already exists`);
    if (next === "name-required") return toast.error(t`Please enter the model name`);
    if (next === "not-a-number") return toast.error(t`Prices and ratios must be numbers of 0 or more`);
    onRows(next);
    setDialog(null);
  };

  return (
    <div className="flex flex-col gap-2" data-testid="visual-prices">
      <div className="flex gap-2">
        <input
          className="input input-sm flex-1"
          placeholder={t`Search models`}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPageIndex(0);
          }}
        />
        <button type="button" className="btn btn-sm" data-testid="add-model" onClick={() => setDialog({})}>
          <Trans>Add model</Trans>
        </button>
      </div>
      <DataTable
        columns={columns}
        rows={page}
        total={matching.length}
        pagination={{ pageIndex, pageSize: PAGE_SIZE }}
        onPagination={(p) => setPageIndex(p.pageIndex)}
        rowId={(r) => r.name}
        testId="price-table"
      />
      {dialog && <PriceRowDialog row={dialog.row} onSubmit={submit} onClose={() => setDialog(null)} />}
    </div>
  );
}
