import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

let derived: { secret: string; key: Buffer } | undefined;

/** The AES-256 key, derived from the server secret for this one purpose so it is never the HMAC key itself. */
function sealingKey(secret: string): Buffer {
  if (derived?.secret !== secret) {
    derived = { secret, key: Buffer.from(hkdfSync("sha256", secret, "tollgate", "token-key-seal", 32)) };
  }
  return derived.key;
}

/** AES-256-GCM: "v1:" + base64(iv ‖ ciphertext ‖ tag). */
export function seal(secret: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(secret), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

/** The sealed text, or undefined when it was sealed under another secret or altered. */
export function unseal(secret: string, sealed: string): string | undefined {
  if (!sealed.startsWith(VERSION)) return undefined;
  const bytes = Buffer.from(sealed.slice(VERSION.length), "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(secret), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
