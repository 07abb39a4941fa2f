import { type ReactNode, useId, useLayoutEffect, useRef } from "react";

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
}

const CONTROLS = "input:not([type=hidden]), select, textarea";

/**
 * A labelled form control with an optional hint below. The legend names the controls inside that have no
 * name of their own (no aria-label, not inside a <label>), so screen readers announce each field by its label.
 */
export function Field({ label, hint, children }: FieldProps) {
  const legendId = useId();
  const hintId = useId();
  const box = useRef<HTMLFieldSetElement>(null);
  useLayoutEffect(() => {
    for (const control of box.current?.querySelectorAll<HTMLElement>(CONTROLS) ?? []) {
      if (control.closest("label") || control.hasAttribute("aria-label")) continue;
      control.setAttribute("aria-labelledby", legendId);
      if (hint) control.setAttribute("aria-describedby", hintId);
    }
  });
  return (
    <fieldset ref={box} className="fieldset">
      <legend id={legendId} className="fieldset-legend">
        {label}
      </legend>
      {children}
      {hint && (
        <p id={hintId} className="label whitespace-normal">
          {hint}
        </p>
      )}
    </fieldset>
  );
}
