import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { FilterForm, FilterInput, FilterSelect, TimeRangeInputs } from "./FilterForm";
import type { LogFilter } from "./log-entry";
import { useLogTypes } from "./log-types";

type Bind = (name: keyof LogFilter) => { name: string; value: string; onChange: (value: string) => void };

interface LogFiltersProps {
  field: Bind;
  admin: boolean;
  onSearch: () => void;
  actions: ReactNode;
}

/** Time range, token, model and group; channel id and username for admins; the log type. */
export function LogFilters({ field, admin, onSearch, actions }: LogFiltersProps) {
  const { t } = useLingui();
  const { types } = useLogTypes();
  return (
    <FilterForm onSearch={onSearch} actions={actions} testId="log-filters">
      <TimeRangeInputs start={field("start")} end={field("end")} />
      <FilterInput label={t`Token name`} {...field("token_name")} />
      <FilterInput label={t`Model name`} {...field("model_name")} />
      <FilterInput label={t`Group`} {...field("group")} />
      {admin && <FilterInput label={t`Channel ID`} type="number" {...field("channel")} />}
      {admin && <FilterInput label={t`Username`} {...field("username")} />}
      <FilterSelect label={t`Log type`} options={types} {...field("type")} />
    </FilterForm>
  );
}
