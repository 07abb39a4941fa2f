import type { ReactNode } from "react";
import { Field } from "./Field";

interface TextAreaProps {
  label: ReactNode;
  name: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  rows?: number;
  placeholder?: string;
  monospace?: boolean;
}

export function TextArea({ label, name, value, onChange, hint, rows = 4, placeholder, monospace }: TextAreaProps) {
  return (
    <Field label={label} hint={hint}>
      <textarea
        className={`textarea w-full ${monospace ? "font-mono text-xs" : ""}`}
        name={name}
        rows={rows}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
    </Field>
  );
}
