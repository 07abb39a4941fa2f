import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { formatTime } from "../log/time";
import { durationOf, SLOW_SECONDS, type TaskRecord } from "./record-kinds";
import { statusBadge, useRecordLabels } from "./record-labels";

export interface KindColumns<Row extends TaskRecord> {
  /** The task id shown. */
  taskId: (row: Row) => string;
  /** Columns of this kind after the task id, and at the end. */
  middle: PagedColumns<Row>;
  tail: PagedColumns<Row>;
}

/** Time taken: red above 60 s (spec §4), a dash while unfinished. */
function Duration({ row }: { row: TaskRecord }) {
  const seconds = durationOf(row);
  if (seconds === undefined) return <span className="opacity-50">—</span>;
  return (
    <span
      className={`badge badge-sm ${seconds > SLOW_SECONDS ? "badge-error" : "badge-success"}`}
      data-testid="duration"
      data-slow={seconds > SLOW_SECONDS}
    >
      {seconds} s
    </span>
  );
}

/** The columns both record screens share, around the kind's own; the channel only for admins. */
export function useRecordColumns<Row extends TaskRecord>(admin: boolean, kind: KindColumns<Row>): PagedColumns<Row> {
  const { t, i18n } = useLingui();
  const labels = useRecordLabels();
  return useMemo(() => {
    const column = columnsFor<Row>();
    const head = column.columns([
      column.display({
        id: "submit_time",
        header: t`Submitted at`,
        cell: ({ row }) => <span className="whitespace-nowrap">{formatTime(row.original.submit_time)}</span>,
      }),
      column.display({ id: "duration", header: t`Time taken`, cell: ({ row }) => <Duration row={row.original} /> }),
      column.display({
        id: "channel",
        header: t`Channel`,
        cell: ({ row }) => (row.original.channel_id ? `#${row.original.channel_id}` : ""),
      }),
      column.display({
        id: "action",
        header: t`Type`,
        cell: ({ row }) => (
          <span className="badge badge-sm badge-outline whitespace-nowrap">{labels.action(row.original.action)}</span>
        ),
      }),
      column.display({
        id: "task_id",
        header: t`Task ID`,
        cell: ({ row }) => <span className="font-mono text-xs">{kind.taskId(row.original)}</span>,
      }),
    ]);
    const status = column.columns([
      column.display({
        id: "status",
        header: t`Status`,
        cell: ({ row }) => (
          <span className={`badge badge-sm whitespace-nowrap ${statusBadge(row.original.status)}`} data-testid="status">
            {labels.status(row.original.status)}
          </span>
        ),
      }),
      column.display({ id: "progress", header: t`Progress`, cell: ({ row }) => row.original.progress }),
      column.display({
        id: "fail_reason",
        header: t`Failure reason`,
        cell: ({ row }) => (
          <span className="block max-w-48 truncate" title={row.original.fail_reason}>
            {row.original.fail_reason}
          </span>
        ),
      }),
    ]);
    const shown = admin ? head : head.filter((c) => c.id !== "channel");
    return [...shown, ...kind.middle, ...status, ...kind.tail];
  }, [i18n.locale, admin, kind]);
}
