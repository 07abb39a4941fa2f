import { randomAlphanumeric } from "../../service/crypto";

/** A request id: UTC time to the second, then 12 random characters. */
export function newRequestId(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return stamp + randomAlphanumeric(12);
}
