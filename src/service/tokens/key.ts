import type { ServiceContext } from "../context";
import { keyedHash, randomAlphanumeric } from "../crypto";
import { seal } from "./seal";

export const KEY_PREFIX = "sk-";
const KEY_LENGTH = 48;
const WHOLE_KEY = /^[0-9A-Za-z]{48}$/;

/** A new key, without its public prefix. */
export const newRawKey = (): string => randomAlphanumeric(KEY_LENGTH);

export const isRawKey = (text: string): boolean => WHOLE_KEY.test(text);

/** The 48 characters of a whole key given with or without its prefix; undefined for anything else. */
export function rawKeyOf(text: string): string | undefined {
  const raw = text.trim().replace(/^sk-/, "");
  return isRawKey(raw) ? raw : undefined;
}

/** What lists show: the prefix, the first and last four characters. */
export const maskKey = (raw: string): string => `${KEY_PREFIX}${raw.slice(0, 4)}**********${raw.slice(-4)}`;

export const hashKey = (ctx: Pick<ServiceContext, "secret">, raw: string): string => keyedHash(ctx.secret, raw);

/** The three stored forms of a key: the hash finds it, the sealed copy reveals it to its owner, the mask lists it. */
export const storedFormsOf = (ctx: Pick<ServiceContext, "secret">, raw: string) => ({
  key_hash: hashKey(ctx, raw),
  key_sealed: seal(ctx.secret, raw),
  key_masked: maskKey(raw),
});
