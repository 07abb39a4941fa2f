const KEY_FORMAT = /^[0-9a-f]{32}$/;

/** 128 bits from the system's CSPRNG, as 32 lowercase hex characters. */
export const newRedemptionKey = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");

/** The key as stored (trimmed, lowercase), or undefined when the text cannot be one. */
export function redemptionKeyOf(text: string): string | undefined {
  const key = text.trim().toLowerCase();
  return KEY_FORMAT.test(key) ? key : undefined;
}
