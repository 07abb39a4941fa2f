import { useLingui } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import { columnsFor, type PagedColumns, type RowData } from "./paged-table";

/**
 * Ticked rows of the page shown, by id, and the checkbox column that ticks them. `idOf` answers undefined
 * for rows that cannot be ticked (e.g. tag rows); rows that leave the page leave the selection.
 */
export function useRowSelection<Row extends RowData>(rows: Row[], idOf: (row: Row) => number | undefined) {
  const { t } = useLingui();
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  const pageIds = rows.map(idOf).filter((id): id is number => id !== undefined);
  const ids = pageIds.filter((id) => ticked.has(id));
  const allTicked = pageIds.length > 0 && ids.length === pageIds.length;
  const key = `${pageIds.join(",")}|${ids.join(",")}`;

  const column = useMemo(() => {
    const toggle = (id: number) =>
      setTicked((set) => (set.has(id) ? new Set([...set].filter((x) => x !== id)) : new Set([...set, id])));
    return columnsFor<Row>().display({
      id: "select",
      header: () => (
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          aria-label={t`Select all`}
          data-testid="select-all"
          checked={allTicked}
          onChange={() => setTicked(allTicked ? new Set() : new Set(pageIds))}
        />
      ),
      cell: ({ row }) => {
        const id = idOf(row.original);
        if (id === undefined) return null;
        return (
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            aria-label={t`Select`}
            data-testid="select-row"
            checked={ticked.has(id)}
            onChange={() => toggle(id)}
          />
        );
      },
    });
    // `key` stands for the page's ids and the ticked ones.
  }, [key, t]);

  return { ids, column, clear: () => setTicked(new Set()) };
}

/** `columns` with the selection column first when `on`. */
export const withSelection = <Row extends RowData>(
  on: boolean,
  selection: { column: PagedColumns<Row>[number] },
  columns: PagedColumns<Row>,
) => (on ? [selection.column, ...columns] : columns);
