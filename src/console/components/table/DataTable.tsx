import { Trans } from "@lingui/react/macro";
import { useTable, type Updater } from "@tanstack/react-table";
import { pagedFeatures, type PagedColumns, type PaginationState, type RowData } from "./paged-table";
import { Pager } from "./Pager";
import { pinnedClass } from "./pinned-columns";

interface DataTableProps<Row extends RowData> {
  columns: PagedColumns<Row>;
  /** The current page's rows only. */
  rows: Row[];
  total: number;
  pagination: PaginationState;
  onPagination: (next: PaginationState) => void;
  rowId: (row: Row) => string;
  /** Page sizes offered; none hides the choice. */
  pageSizes?: readonly number[];
  testId?: string;
}

/** A server-paged table (TanStack Table v9, manual pagination) with the pager below. */
export function DataTable<Row extends RowData>({
  columns,
  rows,
  total,
  pagination,
  onPagination,
  rowId,
  pageSizes,
  testId,
}: DataTableProps<Row>) {
  const table = useTable({
    features: pagedFeatures,
    columns,
    data: rows,
    getRowId: rowId,
    manualPagination: true,
    rowCount: total,
    state: { pagination },
    onPaginationChange: (updater: Updater<PaginationState>) =>
      onPagination(typeof updater === "function" ? updater(pagination) : updater),
  });
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto bg-base-100 rounded-box shadow">
        <table className="table table-sm" data-testid={testId}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} className={pinnedClass(header.column.id)}>
                    {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-row={row.id}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} className={pinnedClass(cell.column.id)}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="text-center opacity-60">
                  <Trans>No data</Trans>
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager table={table} total={total} pageSizes={pageSizes} />
    </div>
  );
}
