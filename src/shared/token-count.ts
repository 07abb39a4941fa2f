/** A token count from an upstream report: a non-negative integer, 0 when missing or malformed. */
export const tokenCount = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
