import type { ReactNode } from "react";
import { Field } from "./Field";

interface SelectFieldProps {
  label: ReactNode;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  hint?: ReactNode;
}

export function SelectField({ label, name, value, options, onChange, hint }: SelectFieldProps) {
  return (
    <Field label={label} hint={hint}>
      <select className="select w-full" name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
