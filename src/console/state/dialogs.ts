import { signal } from "@preact/signals-react";

/**
 * The modal dialogs open now, the topmost last. While one is open the rest of the page is inert, so
 * whatever must stay usable above it (the toasts) is rendered inside the topmost.
 */
export const openDialogs = signal<readonly HTMLDialogElement[]>([]);

export const dialogOpened = (dialog: HTMLDialogElement) => {
  openDialogs.value = [...openDialogs.value, dialog];
};

export const dialogClosed = (dialog: HTMLDialogElement) => {
  openDialogs.value = openDialogs.value.filter((d) => d !== dialog);
};
