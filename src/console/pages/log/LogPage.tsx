import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useState } from "react";
import { PAGE_SIZE_CHOICES } from "../../../shared/constants";
import type { LogView } from "../../../shared/views/log";
import { useServerPage } from "../../components/table/use-server-page";
import { isAdmin } from "../../state/user";
import { useApiData } from "../../use-api-data";
import { ColumnSettings } from "./ColumnSettings";
import { isShown } from "./column-prefs";
import { downloadCsv } from "./export-csv";
import { useLogColumns } from "./log-columns";
import { initialLogFilter, logExportUrl, logListUrl, logStatUrl } from "./log-entry";
import { LogDetails } from "./LogDetails";
import { LogFilters } from "./LogFilters";
import { LogSummary, type LogStat } from "./LogSummary";
import { LogTable } from "./LogTable";
import { useFilters } from "./use-filters";
import { UserInfoDialog } from "./UserInfoDialog";

/** /log: everyone's usage logs for admins, one's own for others (spec §2 'Log screen'). */
export default function LogPage() {
  useSignals();
  const admin = isAdmin.value;
  const filters = useFilters(initialLogFilter);
  const applied = filters.applied;
  const page = useServerPage<LogView>((p, size) => logListUrl(applied, admin, p, size));
  const stat = useApiData<LogStat>(logStatUrl(applied, admin));
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [userId, setUserId] = useState<number | null>(null);
  const toggle = useCallback(
    (id: number) =>
      setExpanded((open) => {
        const next = new Set(open);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const onUser = useCallback((entry: LogView) => setUserId(entry.user_id), []);
  const columns = useLogColumns({ admin, expanded, toggle, onUser });
  const choices = columns.filter((c) => c.id !== "expand").map((c) => ({ id: c.id!, label: String(c.header) }));

  const search = () =>
    filters.search({ firstPage: page.firstPage, reload: () => Promise.all([page.reload(), stat.reload()]) });
  const actions = (
    <>
      <ColumnSettings columns={choices} />
      <button
        type="button"
        className="btn btn-sm"
        data-testid="export-csv"
        onClick={() => downloadCsv(logExportUrl(applied, admin))}
      >
        <Trans>Export CSV</Trans>
      </button>
    </>
  );
  return (
    <div className="flex flex-col gap-3" data-testid="log-page">
      <LogSummary stat={stat.data} />
      <LogFilters field={filters.field} admin={admin} onSearch={search} actions={actions} />
      <LogTable
        columns={columns.filter((c) => isShown(c.id!))}
        rows={page.rows}
        total={page.total}
        pagination={page.pagination}
        onPagination={page.onPagination}
        pageSizes={PAGE_SIZE_CHOICES}
        detail={(entry) => (expanded.has(entry.id) ? <LogDetails entry={entry} admin={admin} /> : undefined)}
      />
      {userId !== null && <UserInfoDialog userId={userId} onClose={() => setUserId(null)} />}
    </div>
  );
}
