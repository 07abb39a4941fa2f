import { useLingui } from "@lingui/react/macro";
import { useMemo } from "react";
import type { LogView } from "../../../shared/views/log";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { showQuota } from "../../state/status";
import { LatencyCell } from "./LatencyCell";
import { useLogTypes } from "./log-types";
import { formatTime } from "./time";

const column = columnsFor<LogView>();

interface LogColumnsOptions {
  admin: boolean;
  expanded: ReadonlySet<number>;
  toggle: (id: number) => void;
  /** Opens the user info popup (admins). */
  onUser: (entry: LogView) => void;
}

/** A name as a badge that wraps between words, a Chinese word kept whole (long names would otherwise widen the table). */
const badge = (text: string, extra = "badge-outline") =>
  text ? (
    <span
      className={`badge badge-sm ${extra} h-auto max-w-40 [word-break:keep-all] [overflow-wrap:break-word] text-left`}
    >
      {text}
    </span>
  ) : null;
const counted = (entry: LogView, value: number) => (entry.type === 2 ? value : "");

/** Every column of the log table; channel and user only for admins. The first toggles the row's details. */
export function useLogColumns({ admin, expanded, toggle, onUser }: LogColumnsOptions): PagedColumns<LogView> {
  const { t, i18n } = useLingui();
  const types = useLogTypes();
  return useMemo(() => {
    const all = column.columns([
      column.display({
        id: "expand",
        header: "",
        cell: ({ row }) => (
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            data-testid="expand"
            aria-expanded={expanded.has(row.original.id)}
            aria-label={t`Details`}
            onClick={() => toggle(row.original.id)}
          >
            {expanded.has(row.original.id) ? "▾" : "▸"}
          </button>
        ),
      }),
      column.display({
        id: "time",
        header: t`Time`,
        cell: ({ row }) => <span className="inline-block min-w-20">{formatTime(row.original.created_at)}</span>,
      }),
      column.display({
        id: "channel",
        header: t`Channel`,
        cell: ({ row }) =>
          row.original.channel ? badge(`#${row.original.channel} ${row.original.channel_name}`.trim()) : null,
      }),
      column.display({
        id: "user",
        header: t`User`,
        cell: ({ row }) => (
          <button
            type="button"
            className="link link-primary"
            data-testid="user-info"
            onClick={() => onUser(row.original)}
          >
            {row.original.username}
          </button>
        ),
      }),
      column.display({ id: "token", header: t`Token`, cell: ({ row }) => badge(row.original.token_name) }),
      column.display({ id: "group", header: t`Group`, cell: ({ row }) => badge(row.original.group, "badge-ghost") }),
      column.display({
        id: "type",
        header: t`Type`,
        cell: ({ row }) => badge(types.of(row.original.type).label, types.of(row.original.type).badge),
      }),
      column.display({
        id: "model",
        header: t`Model`,
        cell: ({ row }) => badge(row.original.model_name, "badge-outline font-mono"),
      }),
      column.display({
        id: "use_time",
        header: t`Time taken`,
        cell: ({ row }) => <LatencyCell entry={row.original} />,
      }),
      column.display({
        id: "prompt",
        header: t`Prompt tokens`,
        cell: ({ row }) => counted(row.original, row.original.prompt_tokens),
      }),
      column.display({
        id: "completion",
        header: t`Completion tokens`,
        cell: ({ row }) => counted(row.original, row.original.completion_tokens),
      }),
      column.display({
        id: "quota",
        header: t`Cost`,
        cell: ({ row }) =>
          row.original.quota ? <span className="whitespace-nowrap">{showQuota(row.original.quota)}</span> : "",
      }),
      column.display({ id: "ip", header: "IP", cell: ({ row }) => row.original.ip }),
      column.display({
        id: "content",
        header: t`Details`,
        cell: ({ row }) => (
          <span className="block max-w-48 truncate" title={row.original.content}>
            {row.original.content}
          </span>
        ),
      }),
    ]);
    return admin ? all : all.filter((c) => c.id !== "channel" && c.id !== "user");
  }, [i18n.locale, admin, expanded, toggle, onUser]);
}
