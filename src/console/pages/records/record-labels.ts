import { useLingui } from "@lingui/react/macro";

/** daisyUI badge colours of task statuses. */
const STATUS_BADGE: Record<string, string> = {
  SUCCESS: "badge-success",
  FAILURE: "badge-error",
  IN_PROGRESS: "badge-info",
  SUBMITTED: "badge-primary",
  QUEUED: "badge-primary",
  MODAL: "badge-warning",
};

export const statusBadge = (status: string) => STATUS_BADGE[status] ?? "badge-ghost";

/** The words of spec §4 for task statuses, drawing submit codes and the actions of both screens. */
export function useRecordLabels() {
  const { t } = useLingui();
  const statuses: Record<string, string> = {
    SUCCESS: t`Success`,
    NOT_START: t`Not started`,
    SUBMITTED: t`In queue`,
    IN_PROGRESS: t`In progress`,
    FAILURE: t`Failed`,
    MODAL: t`Waiting in a dialog`,
    QUEUED: t`Queued`,
    UNKNOWN: t`Unknown`,
    "": t`Submitting`,
  };
  const actions: Record<string, string> = {
    IMAGINE: t`Imagine`,
    UPSCALE: t`Upscale`,
    VARIATION: t`Variation`,
    HIGH_VARIATION: t`Strong variation`,
    LOW_VARIATION: t`Subtle variation`,
    PAN: t`Pan`,
    DESCRIBE: t`Describe`,
    BLEND: t`Blend`,
    UPLOAD: t`Upload`,
    SHORTEN: t`Shorten`,
    REROLL: t`Reroll`,
    INPAINT: t`Inpaint`,
    ZOOM: t`Zoom`,
    CUSTOM_ZOOM: t`Custom zoom`,
    MODAL: t`Dialog`,
    SWAP_FACE: t`Face swap`,
    MUSIC: t`Generate music`,
    LYRICS: t`Generate lyrics`,
  };
  const codes: Record<number, string> = {
    1: t`Submitted`,
    21: t`Waiting`,
    22: t`Duplicate submission`,
    0: t`Not submitted`,
  };
  return {
    status: (status: string) => statuses[status] ?? status,
    action: (action: string) => actions[action] ?? action,
    code: (code: number) => codes[code] ?? t`Unknown`,
    platform: (platform: string) => (platform === "suno" ? "Suno" : platform),
  };
}
