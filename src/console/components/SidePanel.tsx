import type { ReactNode } from "react";

interface SidePanelProps {
  title: ReactNode;
  children: ReactNode;
  onClose: () => void;
}

/** A drawer sliding in from the right, over the page; full width on a phone. */
export function SidePanel({ title, children, onClose }: SidePanelProps) {
  return (
    <div className="fixed inset-0 z-50 flex justify-end" role="dialog" aria-modal="true">
      <div className="absolute inset-0 bg-black/40" onClick={onClose} />
      <aside className="relative bg-base-100 w-[28rem] max-tablet:w-full h-full overflow-auto p-5 shadow-xl">
        <div className="flex items-center justify-between mb-4">
          <h3 className="text-lg font-bold">{title}</h3>
          <button type="button" className="btn btn-sm btn-ghost" aria-label="close" onClick={onClose}>
            ✕
          </button>
        </div>
        {children}
      </aside>
    </div>
  );
}
