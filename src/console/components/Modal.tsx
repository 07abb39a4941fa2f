import { type ReactNode, useId } from "react";
import { CloseButton } from "./CloseButton";
import { useModalDialog } from "./use-modal-dialog";

interface ModalProps {
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  onClose: () => void;
}

/** A daisyUI modal on a native dialog, open while rendered: Escape, the ✕ and the backdrop close it. */
export function Modal({ title, children, actions, onClose }: ModalProps) {
  const ref = useModalDialog(onClose);
  const titleId = useId();
  return (
    <dialog ref={ref} className="modal" aria-labelledby={titleId}>
      <div className="modal-box">
        <CloseButton onClose={onClose} className="absolute right-2 top-2" />
        <h3 id={titleId} className="text-lg font-bold mb-3 pe-8">
          {title}
        </h3>
        {children}
        {actions && <div className="modal-action">{actions}</div>}
      </div>
      <div className="modal-backdrop" onClick={onClose} />
    </dialog>
  );
}
