import { refuse } from "../errors";

interface Pending {
  code: string;
  expiresAt: number;
  attempts: number;
}

const VALID_MS = 10 * 60 * 1000;
const MAX_ATTEMPTS = 5;
const pending = new Map<string, Pending>();

/** Remembers a code sent to an email (the mail itself is sent by the email feature). */
export function rememberVerificationCode(email: string, code: string): void {
  pending.set(email.toLowerCase(), { code, expiresAt: Date.now() + VALID_MS, attempts: 0 });
}

/** Single use, expiring, and void after five wrong tries. */
export function checkVerificationCode(email: string, code: string): void {
  const key = email.toLowerCase();
  const entry = pending.get(key);
  if (!entry || entry.expiresAt < Date.now() || entry.attempts >= MAX_ATTEMPTS) {
    pending.delete(key);
    refuse("verification code is wrong or has expired");
    return;
  }
  if (entry.code !== code) {
    entry.attempts += 1;
    refuse("verification code is wrong or has expired");
  }
  pending.delete(key);
}
