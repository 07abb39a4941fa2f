import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 256-bit key derived from the server secret for one purpose, so no two uses share a key. */
export const derivedKey = (secret: string, purpose: string): Buffer =>
  Buffer.from(hkdfSync("sha256", secret, "tollgate", purpose, 32));

/** AES-256-GCM: base64(iv ‖ ciphertext ‖ tag). */
export function encrypt(key: Buffer, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
}

/** The plain text, or undefined when `text` was encrypted under another key or altered. */
export function decrypt(key: Buffer, text: string): string | undefined {
  const bytes = Buffer.from(text, "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
