import type { ReactNode } from "react";

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  onClose: () => void;
}

/** A daisyUI modal that is open while rendered. */
export function Modal({ title, children, actions, onClose }: ModalProps) {
  return (
    <div className="modal modal-open" role="dialog" aria-modal="true">
      <div className="modal-box">
        <h3 className="text-lg font-bold mb-3">{title}</h3>
        {children}
        {actions && <div className="modal-action">{actions}</div>}
      </div>
      <div className="modal-backdrop" onClick={onClose} />
    </div>
  );
}
