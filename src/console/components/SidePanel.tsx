import { type ReactNode, useId } from "react";
import { CloseButton } from "./CloseButton";
import { useModalDialog } from "./use-modal-dialog";

interface SidePanelProps {
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
}

/** A drawer sliding in from the right, over the page; full width on a phone. Escape, ✕ and the backdrop close it. */
export function SidePanel({ title, children, onClose }: SidePanelProps) {
  const ref = useModalDialog(onClose);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      className="m-0 ms-auto h-full max-h-none w-[28rem] max-w-full max-tablet:w-full bg-transparent p-0 backdrop:bg-black/40"
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <aside className="bg-base-100 text-base-content h-full overflow-auto p-5 shadow-xl">
        <div className="flex items-center justify-between mb-4">
          <h3 id={titleId} className="text-lg font-bold">
            {title}
          </h3>
          <CloseButton onClose={onClose} />
        </div>
        {children}
      </aside>
    </dialog>
  );
}
