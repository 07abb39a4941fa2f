import { randomAlphanumeric } from "../../service/crypto";

let stampSecond = -1;
let stamp = "";

/** A request id: UTC time to the second (formatted once a second), then 12 random characters. */
export function newRequestId(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(second * 1000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  }
  return stamp + randomAlphanumeric(12);
}
