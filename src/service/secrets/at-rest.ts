import type { SecretColumns } from "../../db/exec";
import { decrypt, derivedKey, encrypt } from "./aes-gcm";

/** Marks a stored value as encrypted, so a plaintext one (from before, or written by hand) is recognised. */
export const SEALED_PREFIX = "enc:v1:";

export const WRONG_KEY = "cannot decrypt channel keys: the secret key differs from the one that encrypted them";

export const isSealedAtRest = (stored: string): boolean => stored.startsWith(SEALED_PREFIX);

/**
 * Channel keys and secret options as the database holds them: AES-256-GCM under a key derived from the server
 * secret, which is never in the database. Empty stays empty (nothing to hide, and "unset" stays readable).
 */
export class AtRestCipher implements SecretColumns {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = derivedKey(secret, "at-rest");
  }

  seal(plain: string): string {
    return plain === "" ? plain : SEALED_PREFIX + encrypt(this.key, plain);
  }

  /** Plaintext passes through (a value from before encryption); a value sealed under another key fails loudly. */
  open(stored: string): string {
    if (!isSealedAtRest(stored)) return stored;
    const plain = decrypt(this.key, stored.slice(SEALED_PREFIX.length));
    if (plain === undefined) throw new Error(WRONG_KEY);
    return plain;
  }
}
