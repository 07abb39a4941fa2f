import { decrypt, derivedKey, encrypt } from "../secrets/aes-gcm";

const VERSION = "v1:";

let derived: { secret: string; key: Buffer } | undefined;

/** The AES-256 key, derived from the server secret for this one purpose so it is never the HMAC key itself. */
function sealingKey(secret: string): Buffer {
  if (derived?.secret !== secret) derived = { secret, key: derivedKey(secret, "token-key-seal") };
  return derived.key;
}

/** AES-256-GCM: "v1:" + base64(iv ‖ ciphertext ‖ tag). */
export const seal = (secret: string, plain: string): string => VERSION + encrypt(sealingKey(secret), plain);

/** The sealed text, or undefined when it was sealed under another secret or altered. */
export function unseal(secret: string, sealed: string): string | undefined {
  return sealed.startsWith(VERSION) ? decrypt(sealingKey(secret), sealed.slice(VERSION.length)) : undefined;
}
