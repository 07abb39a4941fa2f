import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
import { useEffect } from "react";
import { createPortal } from "react-dom";
import { useLocation } from "wouter";
import { openDialogs } from "../state/dialogs";
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
 * Toasts in the bottom-right corner, each with a ✕; a route change clears the previous screen's. While a
 * modal dialog is open the page behind it is inert, so the toasts are rendered inside the topmost dialog.
 */
export function Toasts() {
  useSignals();
  const { t } = useLingui();
  const [location] = useLocation();
  const list = toasts.value;
  const host = openDialogs.value.at(-1);
  // Runs on each route change.
  useEffect(() => clearStaleToasts(), [location]);
  const area = (
    <div
      className="fixed bottom-4 right-4 z-[100] flex flex-col items-end gap-2 w-max max-w-[min(28rem,calc(100vw-2rem))]"
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
  return host ? createPortal(area, host) : area;
}
