import { PAGE_SIZE_CHOICES } from "../../../shared/constants";
import { DataTable } from "./DataTable";
import type { PagedColumns, PaginationState, RowData } from "./paged-table";

interface ServerTableProps<Row extends RowData> {
  /** What useServerPage gives (rows may be reshaped, e.g. tag rows opened). */
  page: { total: number; pagination: PaginationState; onPagination: (next: PaginationState) => void };
  rows: Row[];
  columns: PagedColumns<Row>;
  rowId: (row: Row) => string;
  testId: string;
}

/** A server-paged list with the page sizes of spec §9 (10, 20, 50, 100). */
export const ServerTable = <Row extends RowData>({ page, rows, columns, rowId, testId }: ServerTableProps<Row>) => (
  <DataTable
    columns={columns}
    rows={rows}
    total={page.total}
    pagination={page.pagination}
    onPagination={page.onPagination}
    rowId={rowId}
    pageSizes={PAGE_SIZE_CHOICES}
    testId={testId}
  />
);

export const idOfRow = (row: { id: number }) => String(row.id);
