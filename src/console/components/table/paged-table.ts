import {
  createColumnHelper,
  rowPaginationFeature,
  tableFeatures,
  type ColumnDef,
  type PaginationState,
  type RowData,
} from "@tanstack/react-table";

/** Every table of the console gets one page of rows (from the server, or sliced locally) and its total. */
export const pagedFeatures = tableFeatures({ rowPaginationFeature });
export type PagedFeatures = typeof pagedFeatures;

export const columnsFor = <Row extends RowData>() => createColumnHelper<PagedFeatures, Row>();
export type PagedColumns<Row extends RowData> = ColumnDef<PagedFeatures, Row, any>[];
export type { PaginationState, RowData };
