const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random [0-9A-Za-z] characters from the system's CSPRNG (rejection sampling, no modulo bias). */
export function randomAlphanumeric(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += ALPHANUMERIC[b % 62];
    }
  }
  return out;
}

/** HMAC-SHA256 in hex: how secrets (sessions, access tokens) are stored, so a database leak reveals none. */
export function keyedHash(secret: string, value: string): string {
  return new Bun.CryptoHasher("sha256", secret).update(value).digest("hex");
}
