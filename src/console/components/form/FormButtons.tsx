import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";

/** The full-width submit button of the sign-in, registration, reset and setup forms. */
export function SubmitButton({ children, disabled }: { children: ReactNode; disabled?: boolean }) {
  return (
    <button type="submit" className="btn btn-primary mt-3" disabled={disabled}>
      {children}
    </button>
  );
}

/** Submit and cancel at the end of a drawer's form. */
export function SubmitOrCancel({ submit, onCancel }: { submit: ReactNode; onCancel: () => void }) {
  return (
    <div className="flex gap-2 mt-3">
      <button type="submit" className="btn btn-primary">
        {submit}
      </button>
      <button type="button" className="btn" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </button>
    </div>
  );
}
