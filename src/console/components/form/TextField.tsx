import type { ReactNode } from "react";
import { Field } from "./Field";

interface TextFieldProps {
  label: ReactNode;
  name: string;
  value: string;
  onChange: (value: string) => void;
  type?: "text" | "password" | "email" | "number" | "date" | "url";
  hint?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
  autoComplete?: string;
  min?: number;
  step?: string;
  /** Extra control after the input, e.g. a "get code" button. */
  addon?: ReactNode;
}

export function TextField({ label, name, value, onChange, type = "text", hint, addon, ...rest }: TextFieldProps) {
  const input = (
    <input
      className="input w-full"
      name={name}
      type={type}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      {...rest}
    />
  );
  return (
    <Field label={label} hint={hint}>
      {addon ? (
        <div className="join w-full">
          <div className="join-item flex-1">{input}</div>
          {addon}
        </div>
      ) : (
        input
      )}
    </Field>
  );
}
