import { Trans, useLingui } from "@lingui/react/macro";
import type { FormEvent, ReactNode } from "react";

interface FilterInputProps {
  label: ReactNode;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: "text" | "number" | "datetime-local";
}

/** One labelled filter input, full width on a phone. */
export function FilterInput({ label, name, value, onChange, type = "text" }: FilterInputProps) {
  return (
    <label className="flex flex-col gap-1 text-xs max-tablet:w-full">
      <span className="opacity-70">{label}</span>
      <input
        className="input input-sm w-48 max-tablet:w-full"
        name={name}
        type={type}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </label>
  );
}

interface FilterSelectProps {
  label: ReactNode;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string | number; label: string }[];
}

/** One labelled filter choice. */
export function FilterSelect({ label, name, value, onChange, options }: FilterSelectProps) {
  return (
    <label className="flex flex-col gap-1 text-xs max-tablet:w-full">
      <span className="opacity-70">{label}</span>
      <select
        className="select select-sm w-36 max-tablet:w-full"
        name={name}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

type Bound = { name: string; value: string; onChange: (value: string) => void };

/** The time range inputs (local time), bound to the start_timestamp and end_timestamp filters. */
export function TimeRangeInputs({ start, end }: { start: Bound; end: Bound }) {
  const { t } = useLingui();
  return (
    <>
      <FilterInput label={t`Start time`} type="datetime-local" {...start} />
      <FilterInput label={t`End time`} type="datetime-local" {...end} />
    </>
  );
}

interface FilterFormProps {
  onSearch: () => void;
  children: ReactNode;
  /** Buttons after Search. */
  actions?: ReactNode;
  testId?: string;
}

/** A row of filters with the Search button; Enter in any input searches too. */
export function FilterForm({ onSearch, children, actions, testId }: FilterFormProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch();
  };
  return (
    <form
      onSubmit={submit}
      className="flex flex-wrap gap-2 items-end bg-base-100 rounded-box shadow p-3"
      data-testid={testId}
    >
      {children}
      <button type="submit" className="btn btn-primary btn-sm max-tablet:w-full">
        <Trans>Search</Trans>
      </button>
      {actions}
    </form>
  );
}
