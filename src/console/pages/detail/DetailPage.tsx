import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { platform } from "../../state/status";
import { isAdmin } from "../../state/user";
import { useApiData } from "../../use-api-data";
import { FilterForm, FilterInput, FilterSelect, TimeRangeInputs } from "../log/FilterForm";
import { useFilters } from "../log/use-filters";
import { FeatureOff } from "../records/FeatureOff";
import { GRANULARITIES, totalsOf, type Bucket, type Granularity } from "./buckets";
import { defaultGranularity, initialDetailFilter, modelDataUrl, userDataUrl } from "./detail-query";
import { DetailSummary } from "./DetailSummary";
import { ModelCharts } from "./ModelCharts";
import { UserOverview } from "./UserOverview";

function Dashboard() {
  useSignals();
  const { t } = useLingui();
  const admin = isAdmin.value;
  const [granularity, setGranularity] = useState<Granularity>(defaultGranularity);
  const filters = useFilters(initialDetailFilter(granularity));
  const models = useApiData<Bucket[]>(modelDataUrl(filters.applied, admin));
  const rows = models.data ?? [];
  const names: Record<Granularity, string> = { hour: t`Hour`, day: t`Day`, week: t`Week` };
  return (
    <div className="flex flex-col gap-3" data-testid="detail-page">
      <FilterForm
        onSearch={() => filters.search({ firstPage: () => undefined, reload: models.reload })}
        testId="detail-filters"
      >
        <TimeRangeInputs start={filters.field("start")} end={filters.field("end")} />
        {admin && <FilterInput label={t`Username`} {...filters.field("username")} />}
        <FilterSelect
          label={t`Granularity`}
          name="granularity"
          value={granularity}
          onChange={(g) => setGranularity(g as Granularity)}
          options={GRANULARITIES.map((g) => ({ value: g, label: names[g] }))}
        />
      </FilterForm>
      <DetailSummary totals={totalsOf(rows)} />
      <div className="grid gap-3 grid-cols-1 lg:grid-cols-2">
        <ModelCharts rows={rows} granularity={granularity} />
        {admin && <UserOverview url={userDataUrl(filters.applied)} />}
      </div>
    </div>
  );
}

/** /detail, the dashboard (only while data export is enabled): consumption and calls over time, models and users. */
export default function DetailPage() {
  useSignals();
  return platform.value?.enable_data_export === true ? <Dashboard /> : <FeatureOff />;
}
