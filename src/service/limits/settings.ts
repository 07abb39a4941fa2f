import { optionalInt } from "../env-int";

/** The actions limited per client address, each in a window of its own. */
export type LimitedAction =
  | "login"
  | "register"
  | "redeem"
  | "keyReveal"
  | "pay"
  | "emailPerAddress"
  | "emailPerRecipient"
  | "keyCheck";

export interface Window {
  /** Requests allowed per window per address. */
  count: number;
  windowSeconds: number;
}

/** Each action's variable (COUNT/SECONDS) and default. */
export const RATE_LIMITS = {
  login: { variable: "LOGIN_RATE_LIMIT", count: 30, windowSeconds: 600 },
  /** Registration and the first-run setup. */
  register: { variable: "REGISTER_RATE_LIMIT", count: 10, windowSeconds: 3600 },
  redeem: { variable: "REDEEM_RATE_LIMIT", count: 20, windowSeconds: 1200 },
  /** Showing an access token's or a channel's key. */
  keyReveal: { variable: "KEY_REVEAL_RATE_LIMIT", count: 60, windowSeconds: 600 },
  /** Starting an online payment. */
  pay: { variable: "PAY_RATE_LIMIT", count: 20, windowSeconds: 1200 },
  /** Mails sent on request (verification codes, reset links), per client address. */
  emailPerAddress: { variable: "EMAIL_RATE_LIMIT", count: 10, windowSeconds: 3600 },
  /** The same mails per recipient (besides the 30-second lock between two sends to one address). */
  emailPerRecipient: { variable: "EMAIL_RECIPIENT_RATE_LIMIT", count: 5, windowSeconds: 3600 },
  /** The read-only key calls of balance checkers (GET /api/usage/token, /api/log/token), per address. */
  keyCheck: { variable: "KEY_CHECK_RATE_LIMIT", count: 20, windowSeconds: 1200 },
} as const satisfies Record<LimitedAction, { variable: string } & Window>;

/** Waits after repeated failed sign-ins of one account (see accounts/login-backoff.ts). */
export interface LoginBackoff {
  /** Failed sign-ins allowed before the waits begin; 0 turns the backoff off. */
  freeFailures: number;
  /** The longest wait, in seconds. */
  maxSeconds: number;
}

type Env = Record<string, string | undefined>;

function parseWindow(value: string, name: string): Window {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match || Number(match[2]) === 0) throw new Error(`${name} must be COUNT/SECONDS (e.g. 30/600), got "${value}"`);
  return { count: Number(match[1]), windowSeconds: Number(match[2]) };
}

/**
 * Each action's window: its own variable, else CRITICAL_RATE_LIMIT / CRITICAL_RATE_LIMIT_DURATION (the one
 * setting of earlier versions, now applied to each action separately), else the action's default.
 */
export function parseRateLimits(env: Env): Record<LimitedAction, Window> {
  const legacyCount = optionalInt(env.CRITICAL_RATE_LIMIT, "CRITICAL_RATE_LIMIT");
  const legacyWindow = optionalInt(env.CRITICAL_RATE_LIMIT_DURATION, "CRITICAL_RATE_LIMIT_DURATION");
  const windows = {} as Record<LimitedAction, Window>;
  for (const [action, spec] of Object.entries(RATE_LIMITS) as [LimitedAction, (typeof RATE_LIMITS)[LimitedAction]][]) {
    const own = env[spec.variable];
    windows[action] = own
      ? parseWindow(own, spec.variable)
      : { count: legacyCount ?? spec.count, windowSeconds: legacyWindow || spec.windowSeconds };
  }
  return windows;
}

export function parseLoginBackoff(env: Env): LoginBackoff {
  return {
    freeFailures: optionalInt(env.LOGIN_BACKOFF_AFTER, "LOGIN_BACKOFF_AFTER") ?? 5,
    maxSeconds: optionalInt(env.LOGIN_BACKOFF_MAX_SECONDS, "LOGIN_BACKOFF_MAX_SECONDS") || 900,
  };
}
