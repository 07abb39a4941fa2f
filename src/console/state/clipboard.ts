import { signal } from "@preact/signals-react";
import { toast } from "./toasts";

/** Text the browser refused to copy; a dialog offers it for copying by hand. */
export const manualCopy = signal<string | null>(null);

export async function copyText(text: string, copied: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
  } catch {
    manualCopy.value = text;
  }
}
