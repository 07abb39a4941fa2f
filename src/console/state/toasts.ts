import { signal } from "@preact/signals-react";

export type ToastKind = "success" | "error" | "info" | "warning";
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

export const toasts = signal<Toast[]>([]);
const SHOWN_MS = 4000;
let next = 1;

function show(kind: ToastKind, text: string): void {
  const id = next++;
  toasts.value = [...toasts.value, { id, kind, text }];
  setTimeout(() => dismiss(id), SHOWN_MS);
}

export const dismiss = (id: number) => {
  toasts.value = toasts.value.filter((t) => t.id !== id);
};

export const toast = {
  success: (text: string) => show("success", text),
  error: (text: string) => show("error", text),
  info: (text: string) => show("info", text),
  warning: (text: string) => show("warning", text),
};
