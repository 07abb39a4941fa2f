const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random [0-9A-Za-z] characters from the system's CSPRNG (rejection sampling, no modulo bias). */
export function randomAlphanumeric(length: number): string {
  const chars: string[] = [];
  while (chars.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((length - chars.length) * 1.1) + 8));
    for (let i = 0; i < bytes.length && chars.length < length; i++) {
      if (bytes[i]! < 248) chars.push(ALPHANUMERIC[bytes[i]! % 62]!);
    }
  }
  return chars.join("");
}

/** HMAC-SHA256 in hex: how secrets (sessions, access tokens) are stored, so a database leak reveals none. */
export function keyedHash(secret: string, value: string): string {
  return new Bun.CryptoHasher("sha256", secret).update(value).digest("hex");
}

/** `length` uniformly random decimal digits from the system's CSPRNG. */
export function randomDigits(length: number): string {
  const digits: string[] = [];
  while (digits.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 250 && digits.length < length) digits.push(String(byte % 10));
    }
  }
  return digits.join("");
}
