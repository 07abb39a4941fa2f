import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactTable } from "@tanstack/react-table";
import type { PagedFeatures, RowData } from "./paged-table";

interface PagerProps<Row extends RowData> {
  table: ReactTable<PagedFeatures, Row>;
  total: number;
  pageSizes?: readonly number[];
}

export function Pager<Row extends RowData>({ table, total, pageSizes }: PagerProps<Row>) {
  const { t } = useLingui();
  const { pageIndex, pageSize } = table.state.pagination;
  const pages = Math.max(1, table.getPageCount());
  return (
    <div className="flex flex-wrap items-center gap-2 justify-end text-sm" data-testid="pager">
      <span>
        <Trans>{total} in total</Trans>
      </span>
      <div className="join">
        <button
          type="button"
          className="btn btn-sm join-item"
          aria-label={t`Previous page`}
          disabled={!table.getCanPreviousPage()}
          onClick={() => table.previousPage()}
        >
          «
        </button>
        <span className="btn btn-sm join-item pointer-events-none" data-testid="page-number">
          {pageIndex + 1} / {pages}
        </span>
        <button
          type="button"
          className="btn btn-sm join-item"
          aria-label={t`Next page`}
          disabled={!table.getCanNextPage()}
          onClick={() => table.nextPage()}
        >
          »
        </button>
      </div>
      {pageSizes && (
        <select
          className="select select-sm w-28"
          aria-label={t`Page size`}
          data-testid="page-size"
          value={pageSize}
          onChange={(e) => table.setPageSize(Number(e.currentTarget.value))}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {t`${size} / page`}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
