import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { clearStaleToasts, dismiss, toasts, type ToastKind } from "../state/toasts";

const ALERT: Record<ToastKind, string> = {
  success: "alert-success",
  error: "alert-error",
  info: "alert-info",
  warning: "alert-warning",
};
const ICON: Record<ToastKind, typeof Info> = {
  success: CircleCheck,
  error: CircleAlert,
  info: Info,
  warning: TriangleAlert,
};

/**
 * Toasts in the bottom-right corner, each with a ✕; a route change clears the previous screen's. The area
 * is a manual popover raised again on each new toast, so it shows above an open modal dialog too.
 */
export function Toasts() {
  useSignals();
  const { t } = useLingui();
  const [location] = useLocation();
  const area = useRef<HTMLDivElement>(null);
  const list = toasts.value;
  // Runs on each route change.
  useEffect(() => clearStaleToasts(), [location]);
  useEffect(() => {
    const element = area.current;
    if (!element?.showPopover) return;
    if (element.matches(":popover-open")) element.hidePopover();
    if (list.length > 0) element.showPopover();
  }, [list]);
  return (
    <div
      ref={area}
      popover="manual"
      className="fixed inset-auto bottom-4 right-4 m-0 flex-col items-end gap-2 w-max max-w-[min(28rem,calc(100vw-2rem))] overflow-visible bg-transparent p-0 [&:popover-open]:flex"
      aria-live="polite"
      data-testid="toasts"
    >
      {list.map((item) => {
        const Icon = ICON[item.kind];
        return (
          <div key={item.id} role="alert" data-kind={item.kind} className={`alert ${ALERT[item.kind]} shadow-lg`}>
            <Icon size={18} aria-hidden="true" />
            <span className="break-words min-w-0">{item.text}</span>
            <button
              type="button"
              className="btn btn-xs btn-circle btn-ghost"
              aria-label={t`Dismiss`}
              data-testid="toast-dismiss"
              onClick={() => dismiss(item.id)}
            >
              <X size={14} aria-hidden="true" />
            </button>
          </div>
        );
      })}
    </div>
  );
}
