import { useState, type ReactNode } from "react";
import { ConfirmDialog } from "./ConfirmDialog";

interface ConfirmButtonProps {
  /** The button's text. */
  children: ReactNode;
  title: ReactNode;
  question: ReactNode;
  onConfirm: () => void;
  className?: string;
  /** data-action of the button, for tests. */
  action?: string;
  danger?: boolean;
  disabled?: boolean;
}

/** A button whose action runs only after the person confirms it in a dialog. */
export function ConfirmButton({
  children,
  title,
  question,
  onConfirm,
  className = "btn btn-xs",
  action,
  danger,
  disabled,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        data-action={action}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {children}
      </button>
      {asking && (
        <ConfirmDialog
          danger={danger}
          title={title}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            onConfirm();
          }}
        >
          {question}
        </ConfirmDialog>
      )}
    </>
  );
}
