import { Trans } from "@lingui/react/macro";
import { useState, type FormEvent, type ReactNode } from "react";

export interface SearchField<Name extends string> {
  name: Name;
  /** The input's placeholder, or with `options` the label of the empty choice ("all"). */
  placeholder: string;
  /** A choice among these instead of free text. */
  options?: readonly string[];
}

interface SearchFormProps<Name extends string> {
  fields: SearchField<Name>[];
  /** The trimmed values, on Search. */
  onSearch: (values: Record<Name, string>) => void;
  /** Buttons after Search (add, copy selected…). */
  children?: ReactNode;
  testId?: string;
}

/** Filters of a list and its Search button; the list follows only on Search. */
export function SearchForm<Name extends string>({ fields, onSearch, children, testId }: SearchFormProps<Name>) {
  const [values, setValues] = useState(
    () => Object.fromEntries(fields.map((f) => [f.name, ""])) as Record<Name, string>,
  );
  const change = (name: Name) => (e: { currentTarget: { value: string } }) =>
    setValues({ ...values, [name]: e.currentTarget.value });
  const search = (e: FormEvent) => {
    e.preventDefault();
    onSearch(Object.fromEntries(Object.entries<string>(values).map(([k, v]) => [k, v.trim()])) as Record<Name, string>);
  };
  return (
    <form onSubmit={search} className="flex flex-wrap gap-2 items-end" data-testid={testId}>
      {fields.map((f) =>
        f.options ? (
          <select
            key={f.name}
            className="select w-40"
            name={f.name}
            aria-label={f.placeholder}
            value={values[f.name]}
            onChange={change(f.name)}
          >
            <option value="">{f.placeholder}</option>
            {f.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        ) : (
          <input
            key={f.name}
            className="input w-64 max-tablet:w-full"
            name={f.name}
            placeholder={f.placeholder}
            value={values[f.name]}
            onChange={change(f.name)}
          />
        ),
      )}
      <button type="submit" className="btn">
        <Trans>Search</Trans>
      </button>
      {children}
    </form>
  );
}
