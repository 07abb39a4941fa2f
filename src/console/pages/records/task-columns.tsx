import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { columnsFor } from "../../components/table/paged-table";
import { formatTime } from "../log/time";
import type { KindColumns } from "./record-columns";
import type { AsyncRecord } from "./record-kinds";
import { useRecordLabels } from "./record-labels";

const column = columnsFor<AsyncRecord>();

/** The async task screen's own columns: the platform, and when the task finished. */
export function useTaskColumns(): KindColumns<AsyncRecord> {
  const { t, i18n } = useLingui();
  const labels = useRecordLabels();
  return useMemo(
    () => ({
      taskId: (row) => row.task_id,
      middle: column.columns([
        column.display({
          id: "platform",
          header: t`Platform`,
          cell: ({ row }) => (
            <span className="badge badge-sm badge-ghost">{labels.platform(row.original.platform)}</span>
          ),
        }),
      ]),
      tail: column.columns([
        column.display({
          id: "finish_time",
          header: t`Finished at`,
          cell: ({ row }) => <span className="whitespace-nowrap">{formatTime(row.original.finish_time)}</span>,
        }),
      ]),
    }),
    [i18n.locale],
  );
}
