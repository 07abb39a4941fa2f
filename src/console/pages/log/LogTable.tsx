import { pinnedClass } from "../../components/table/pinned-columns";
import { Trans } from "@lingui/react/macro";
import { functionalUpdate, useTable } from "@tanstack/react-table";
import { Fragment, type ReactNode } from "react";
import type { LogView } from "../../../shared/views/log";
import { Pager } from "../../components/table/Pager";
import { pagedFeatures, type PagedColumns, type PaginationState } from "../../components/table/paged-table";

interface LogTableProps {
  columns: PagedColumns<LogView>;
  rows: LogView[];
  total: number;
  pagination: PaginationState;
  onPagination: (next: PaginationState) => void;
  pageSizes: readonly number[];
  /** The details under an expanded row; undefined while collapsed. */
  detail: (entry: LogView) => ReactNode | undefined;
}

/** The server-paged log table whose rows expand into a details row spanning every column. */
export function LogTable({ columns, rows, total, pagination, onPagination, pageSizes, detail }: LogTableProps) {
  const table = useTable({
    features: pagedFeatures,
    columns,
    data: rows,
    getRowId: (entry) => String(entry.id),
    manualPagination: true,
    rowCount: total,
    state: { pagination },
    onPaginationChange: (updater) => onPagination(functionalUpdate(updater, pagination)),
  });
  const headers = table.getFlatHeaders();
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto bg-base-100 rounded-box shadow">
        {/* table-xs and wrapping cells keep all fourteen of an admin's columns within 1366 px (issue #22). */}
        <table
          className="table table-xs [&_th]:whitespace-normal [&_th]:[word-break:keep-all] [&_th]:align-bottom"
          data-testid="log-table"
        >
          <thead>
            <tr>
              {headers.map((header) => (
                <th key={header.id} className={pinnedClass(header.column.id)}>
                  <table.FlexRender header={header} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => {
              const open = detail(row.original);
              return (
                <Fragment key={row.id}>
                  <tr data-row={row.id}>
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} className={pinnedClass(cell.column.id)}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                  {open && (
                    <tr data-detail={row.id} className="bg-base-200">
                      <td colSpan={headers.length}>{open}</td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
            {rows.length === 0 && (
              <tr>
                <td colSpan={headers.length} className="text-center opacity-60">
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
