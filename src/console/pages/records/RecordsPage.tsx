import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { PAGE_SIZE_CHOICES } from "../../../shared/constants";
import { DataTable } from "../../components/table/DataTable";
import { useServerPage } from "../../components/table/use-server-page";
import { platform } from "../../state/status";
import { isAdmin } from "../../state/user";
import { FilterForm, FilterInput, TimeRangeInputs } from "../log/FilterForm";
import { useFilters } from "../log/use-filters";
import { FeatureOff } from "./FeatureOff";
import { useRecordColumns, type KindColumns } from "./record-columns";
import { initialRecordFilter, recordListUrl, type RecordKind, type TaskRecord } from "./record-kinds";

interface RecordsProps<Row extends TaskRecord> {
  kind: RecordKind;
  columns: KindColumns<Row>;
  testId: string;
}

function RecordList<Row extends TaskRecord>({ kind, columns, testId }: RecordsProps<Row>) {
  useSignals();
  const { t } = useLingui();
  const admin = isAdmin.value;
  const filters = useFilters(initialRecordFilter(kind));
  const page = useServerPage<Row>((p, size) => recordListUrl(kind, filters.applied, admin, p, size));
  const search = () => filters.search(page);
  return (
    <div className="flex flex-col gap-3" data-testid={testId}>
      <FilterForm onSearch={search} testId="record-filters">
        {admin && <FilterInput label={t`Channel ID`} type="number" {...filters.field("channel_id")} />}
        <FilterInput label={t`Task ID`} {...filters.field("task")} />
        {kind.hasPlatform && <FilterInput label={t`Platform`} {...filters.field("platform")} />}
        <TimeRangeInputs start={filters.field("start")} end={filters.field("end")} />
      </FilterForm>
      <DataTable
        columns={useRecordColumns(admin, columns)}
        rows={page.rows}
        total={page.total}
        pagination={page.pagination}
        onPagination={page.onPagination}
        rowId={(row) => String(row.id)}
        pageSizes={PAGE_SIZE_CHOICES}
        testId="records-table"
      />
    </div>
  );
}

/** A record screen (drawing or async tasks), shown only while its platform switch is on. */
export function RecordsPage<Row extends TaskRecord>(props: RecordsProps<Row>) {
  useSignals();
  if (platform.value?.[props.kind.switchName] !== true) return <FeatureOff />;
  return <RecordList {...props} />;
}
