import { useEffect, useRef } from "react";
import { dialogClosed, dialogOpened } from "../state/dialogs";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab from the last control goes to the first and Shift+Tab from the first to the last, never to the browser's bar. */
function wrapTab(dialog: HTMLDialogElement, event: KeyboardEvent): void {
  if (event.key !== "Tab") return;
  const controls = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((e) => e.getClientRects().length > 0);
  if (controls.length === 0) return;
  const first = controls[0]!;
  const last = controls.at(-1)!;
  const active = document.activeElement;
  if (event.shiftKey ? active === first || !dialog.contains(active) : active === last) {
    event.preventDefault();
    (event.shiftKey ? last : first).focus();
  }
}

/**
 * A native <dialog> opened with showModal() while mounted: the browser then keeps focus inside it
 * (the page behind is inert; Tab wraps around inside), puts it in the top layer, and Escape fires `cancel`, which closes it
 * through `onClose` (the owner unmounts it), so every dialog closes the same way.
 */
export function useModalDialog(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    dialogOpened(dialog);
    const cancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    const keydown = (event: KeyboardEvent) => wrapTab(dialog, event);
    dialog.addEventListener("cancel", cancel);
    dialog.addEventListener("keydown", keydown);
    return () => {
      dialog.removeEventListener("cancel", cancel);
      dialog.removeEventListener("keydown", keydown);
      dialogClosed(dialog);
      if (dialog.open) dialog.close();
    };
  }, []);
  return ref;
}
