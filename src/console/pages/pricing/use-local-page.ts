import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import type { PaginationState } from "../../components/table/paged-table";
import { pageSize } from "../../state/page-size";

/** One page of rows held whole in the browser, with the stored page size (localStorage page-size). */
export function useLocalPage<Row>(all: Row[]) {
  useSignals();
  const [pageIndex, setPageIndex] = useState(0);
  const size = pageSize.value;
  const last = Math.max(0, Math.ceil(all.length / size) - 1);
  const index = Math.min(pageIndex, last);
  const onPagination = (next: PaginationState) => {
    if (next.pageSize !== size) pageSize.value = next.pageSize;
    setPageIndex(next.pageSize !== size ? 0 : next.pageIndex);
  };
  return {
    rows: all.slice(index * size, (index + 1) * size),
    total: all.length,
    pagination: { pageIndex: index, pageSize: size },
    onPagination,
    firstPage: () => setPageIndex(0),
  };
}
