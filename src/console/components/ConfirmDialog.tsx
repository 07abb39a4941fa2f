import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Modal } from "./Modal";

interface ConfirmProps {
  title: ReactNode;
  children: ReactNode;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, children, danger, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Modal
      title={title}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </button>
          <button
            type="button"
            className={`btn ${danger ? "btn-error" : "btn-primary"}`}
            data-testid="confirm"
            onClick={onConfirm}
          >
            <Trans>Confirm</Trans>
          </button>
        </>
      }
    >
      <div>{children}</div>
    </Modal>
  );
}
