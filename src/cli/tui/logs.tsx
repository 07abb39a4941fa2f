import { t } from "@lingui/core/macro";
import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { tailLogs, type TailCursor } from "../../service/logs/tail";
import type { LogView } from "../../service/logs/view";
import { LogType } from "../../shared/constants";
import { useTui } from "./context";
import { parseFilter } from "./filter";
import { clockOf, quotaOf } from "./format";
import type { KeyHelp } from "./help-bar";
import { usePoll } from "./poll";
import { Table, type Column } from "./table";

export const TAIL_REFRESH_MS = 1000;
const FILTER_FIELDS = ["user", "model", "channel"] as const;

export const logKeys = (): KeyHelp[] => [
  ["/", t`filter`],
  ["x", t`errors only`],
];

const typeText = (type: number): string =>
  ({
    [LogType.TopUp]: t`Top-up`,
    [LogType.Consume]: t`Consumption`,
    [LogType.Manage]: t`Management`,
    [LogType.System]: t`System event`,
    [LogType.Error]: t`Error`,
    [LogType.Refund]: t`Refund`,
  })[type] ?? String(type);

/** The service's query from the filter line: bare words are a username; user:, model: and channel: (an id). */
function queryOf(filter: string, errorsOnly: boolean): Record<string, unknown> {
  const { text, fields } = parseFilter(filter, FILTER_FIELDS);
  return {
    username: fields.user ?? text,
    model_name: fields.model,
    channel: fields.channel,
    type: errorsOnly ? LogType.Error : undefined,
  };
}

/** The newest rows of everyone's log, newest on top, with new ones added every second; filters as the admin log list. */
export function LogsScreen() {
  const { ctx, actor, height, active, ask } = useTui();
  const [filter, setFilter] = useState("");
  const [errorsOnly, setErrorsOnly] = useState(false);
  const tail = useRef<{ key: string; cursor?: TailCursor; rows: LogView[] }>(undefined);
  const key = `${filter}\n${errorsOnly}`;
  const limit = Math.max(height - 2, 1);
  const { data: rows = [], error } = usePoll(
    async () => {
      const before = tail.current?.key === key ? tail.current : { key, rows: [] };
      const next = await tailLogs(ctx, actor, queryOf(filter, errorsOnly), before.cursor, limit);
      tail.current = { key, cursor: next.cursor, rows: [...next.rows, ...before.rows].slice(0, limit) };
      return tail.current.rows;
    },
    key,
    TAIL_REFRESH_MS,
  );

  useInput(
    (input) => {
      if (input === "/")
        ask({ kind: "input", label: t`Filter (user, model:…, channel:id):`, initial: filter, onSubmit: setFilter });
      else if (input === "x") setErrorsOnly((on) => !on);
    },
    { isActive: active },
  );

  const columns: Column<LogView>[] = [
    { header: t`Time`, width: 8, value: (r) => clockOf(r.created_at) },
    {
      header: t`Type`,
      width: 11,
      value: (r) => typeText(r.type),
      color: (r) => (r.type === LogType.Error ? "red" : undefined),
    },
    { header: t`User`, width: 10, value: (r) => r.username },
    { header: t`Model`, width: 14, value: (r) => r.model_name },
    { header: t`Channel`, width: 10, value: (r) => r.channel_name || (r.channel ? `#${r.channel}` : "") },
    {
      header: t`Details`,
      grow: true,
      value: (r) =>
        r.type === LogType.Consume
          ? `${r.prompt_tokens}+${r.completion_tokens} ${quotaOf(ctx, r.quota)} ${r.use_time}s`
          : r.content,
    },
  ];
  const shown = [filter ? t`Filter: ${filter}` : t`No filter (/ to set one)`, errorsOnly ? t`errors only` : ""]
    .filter(Boolean)
    .join(" | ");
  return (
    <Box flexDirection="column" flexGrow={1}>
      <Table columns={columns} rows={rows} rowKey={(r) => r.id} empty={t`No log entries yet.`} />
      <Box flexGrow={1} />
      <Text wrap="truncate-end" color={error ? "red" : undefined} dimColor={!error}>
        {error ?? `${shown} | ${t`live, every second`}`}
      </Text>
    </Box>
  );
}
