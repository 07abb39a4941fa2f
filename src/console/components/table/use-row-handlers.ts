import { useMemo, useState } from "react";

/** What a row's actions call: the row as the server answered after a change, a reload, the editor. */
export interface RowHandlers<Row> {
  onChanged: (row: Row) => void;
  onReload: () => void;
  onEdit: (row: Row) => void;
}

interface PagedRows<Row> {
  patchRow: (match: (row: Row) => boolean, change: (row: Row) => Row) => void;
  reload: () => Promise<void>;
}

/** Row handlers of a server-paged list whose rows have ids, with the row being edited ("new" for the create form). */
export function useRowHandlers<Row extends { id: number }>({ patchRow, reload }: PagedRows<Row>) {
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const handlers = useMemo<RowHandlers<Row>>(
    () => ({
      onChanged: (changed) =>
        patchRow(
          (row) => row.id === changed.id,
          () => changed,
        ),
      onReload: () => void reload(),
      onEdit: setEditing,
    }),
    [patchRow, reload],
  );
  return { handlers, editing, setEditing };
}
