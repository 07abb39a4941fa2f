/** Latency colours of the log screen (spec §9). */
export type Tone = "success" | "warning" | "error";

/** Total time in seconds: up to 100 s green, under 300 s orange, else red. */
export const toneOfUseTime = (seconds: number): Tone =>
  seconds <= 100 ? "success" : seconds < 300 ? "warning" : "error";

/** First-token time in milliseconds: under 3 s green, under 10 s orange, else red. */
export const firstTokenTone = (ms: number): Tone => (ms < 3_000 ? "success" : ms < 10_000 ? "warning" : "error");

export const TONE_BADGE: Record<Tone, string> = {
  success: "badge-success",
  warning: "badge-warning",
  error: "badge-error",
};
