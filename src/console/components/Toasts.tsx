import { useSignals } from "@preact/signals-react/runtime";
import { dismiss, toasts, type ToastKind } from "../state/toasts";

const ALERT: Record<ToastKind, string> = {
  success: "alert-success",
  error: "alert-error",
  info: "alert-info",
  warning: "alert-warning",
};

export function Toasts() {
  useSignals();
  return (
    <div className="toast toast-top toast-center z-[100]" aria-live="polite">
      {toasts.value.map((item) => (
        <div
          key={item.id}
          role="alert"
          data-kind={item.kind}
          className={`alert ${ALERT[item.kind]} cursor-pointer`}
          onClick={() => dismiss(item.id)}
        >
          <span>{item.text}</span>
        </div>
      ))}
    </div>
  );
}
