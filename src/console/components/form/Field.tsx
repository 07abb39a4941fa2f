import type { ReactNode } from "react";

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
}

/** A labelled form control with an optional hint below. */
export function Field({ label, hint, children }: FieldProps) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{label}</legend>
      {children}
      {hint && <p className="label whitespace-normal">{hint}</p>}
    </fieldset>
  );
}
