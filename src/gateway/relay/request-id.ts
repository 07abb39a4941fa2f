import { randomAlphanumeric } from "../../service/crypto";

const RANDOM_CHARS = 12;
/** Random characters drawn for this many ids at once: one system call per batch instead of per call. */
const BATCH = 256;

let stampSecond = -1;
let stamp = "";
let pool = "";
let used = 0;

/** A request id: UTC time to the second (formatted once a second), then 12 random characters; one flat string. */
export function newRequestId(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(second * 1000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  }
  if (used === pool.length) {
    pool = randomAlphanumeric(RANDOM_CHARS * BATCH);
    used = 0;
  }
  used += RANDOM_CHARS;
  // Joined, not `+`: the engine keeps a `+` as a pair of pieces, the random one a slice that holds the whole pool,
  // and a stream keeps its id (and so those objects) as long as it is open.
  return [stamp, pool.slice(used - RANDOM_CHARS, used)].join("");
}
