import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../../api";
import { pageSize } from "../../state/page-size";
import type { PaginationState } from "./paged-table";

export interface ServerPage<Row> {
  items: Row[];
  total: number;
}

/**
 * Rows of one page from a list route speaking `p` (1-based) and `page_size`. The page size follows the
 * stored choice (localStorage page-size); `url(p, size)` builds the request, so a new filter is a new url.
 */
export function useServerPage<Row>(url: (page: number, size: number) => string) {
  useSignals();
  const [pageIndex, setPageIndex] = useState(0);
  const [page, setPage] = useState<ServerPage<Row>>({ items: [], total: 0 });
  const size = pageSize.value;
  const path = url(pageIndex + 1, size);
  const current = useRef(path);
  current.current = path;
  const load = useCallback(async () => {
    const reply = await api.get<ServerPage<Row>>(path);
    // A slow answer for an earlier filter or page must not replace the one asked for since.
    if (reply.ok && current.current === path) setPage({ items: reply.data.items ?? [], total: reply.data.total ?? 0 });
  }, [path]);
  useEffect(() => {
    void load();
  }, [load]);
  const pagination: PaginationState = { pageIndex, pageSize: size };
  const onPagination = (next: PaginationState) => {
    if (next.pageSize !== size) {
      pageSize.value = next.pageSize;
      setPageIndex(0);
    } else setPageIndex(next.pageIndex);
  };
  /** Replaces one row in place, e.g. with what a manage reply says. */
  const patchRow = useCallback(
    (match: (row: Row) => boolean, change: (row: Row) => Row) =>
      setPage((p) => ({ ...p, items: p.items.map((row) => (match(row) ? change(row) : row)) })),
    [],
  );
  return {
    rows: page.items,
    total: page.total,
    pagination,
    onPagination,
    reload: load,
    patchRow,
    firstPage: () => setPageIndex(0),
  };
}
