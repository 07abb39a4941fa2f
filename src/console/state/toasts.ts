import { signal } from "@preact/signals-react";

export type ToastKind = "success" | "error" | "info" | "warning";
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  shownAt: number;
}

export const toasts = signal<Toast[]>([]);
const SHOWN_MS = 4000;
/** A toast this young when the route changes belongs to the move (a sign-in's welcome, an expiry notice) and stays. */
const KEPT_ACROSS_NAVIGATION_MS = 1000;
let next = 1;

function show(kind: ToastKind, text: string): void {
  const id = next++;
  toasts.value = [...toasts.value, { id, kind, text, shownAt: Date.now() }];
  setTimeout(() => dismiss(id), SHOWN_MS);
}

export const dismiss = (id: number) => {
  toasts.value = toasts.value.filter((t) => t.id !== id);
};

/** On a route change: the previous screen's toasts go; those raised by the move itself stay. */
export function clearStaleToasts(now = Date.now()): void {
  const kept = toasts.value.filter((t) => now - t.shownAt < KEPT_ACROSS_NAVIGATION_MS);
  if (kept.length !== toasts.value.length) toasts.value = kept;
}

export const toast = {
  success: (text: string) => show("success", text),
  error: (text: string) => show("error", text),
  info: (text: string) => show("info", text),
  warning: (text: string) => show("warning", text),
};
