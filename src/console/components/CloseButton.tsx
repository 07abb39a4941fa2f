import { useLingui } from "@lingui/react/macro";
import { X } from "lucide-react";

/** The ✕ in a dialog's or panel's corner. */
export function CloseButton({ onClose, className = "" }: { onClose: () => void; className?: string }) {
  const { t } = useLingui();
  return (
    <button
      type="button"
      className={`btn btn-sm btn-circle btn-ghost ${className}`}
      aria-label={t`Close`}
      title={t`Close`}
      data-testid="dialog-close"
      onClick={onClose}
    >
      <X size={18} aria-hidden="true" />
    </button>
  );
}
