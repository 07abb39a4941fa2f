import { CHANNEL_TYPES, ChannelStatus } from "../shared/channel-types";
import { refuse } from "../service/errors";
import { Role, UserStatus } from "../shared/constants";

/** Words for the numbers the services speak, in tables, plans and files. */
export const ROLE_NAMES: Record<number, string> = {
  [Role.Common]: "common",
  [Role.Admin]: "admin",
  [Role.Root]: "root",
};
export const USER_STATUS_NAMES: Record<number, string> = {
  [UserStatus.Enabled]: "enabled",
  [UserStatus.Disabled]: "disabled",
};
export const CHANNEL_STATUS_NAMES: Record<number, string> = {
  [ChannelStatus.Enabled]: "enabled",
  [ChannelStatus.ManuallyDisabled]: "disabled",
  [ChannelStatus.AutoDisabled]: "auto-disabled",
};
export const TOKEN_STATUS_NAMES: Record<number, string> = { 1: "enabled", 2: "disabled", 3: "expired", 4: "exhausted" };
export const REDEMPTION_STATUS_NAMES: Record<number, string> = { 1: "unused", 2: "disabled", 3: "used" };

export const nameOf = (names: Record<number, string>, value: number): string => names[value] ?? String(value);

/** The number a word stands for, or undefined. */
export function numberNamed(names: Record<number, string>, word: string): number | undefined {
  const hit = Object.entries(names).find(([, name]) => name === word.trim().toLowerCase());
  return hit ? Number(hit[0]) : undefined;
}

/** A unix time as a short UTC date and time; 0 and -1 read as never. */
export const timeText = (seconds: number): string =>
  seconds > 0
    ? new Date(seconds * 1000).toISOString().slice(0, 16).replace("T", " ")
    : seconds === -1 || seconds === 0
      ? "never"
      : "";

/** A channel type from its number or its name ("OpenAI", "anthropic"); whether a number is known is the service's to say. */
export function channelTypeOf(value: unknown): unknown {
  if (typeof value !== "string" || /^\s*\d+\s*$/.test(value)) return typeof value === "string" ? Number(value) : value;
  const wanted = value.trim().toLowerCase();
  for (const type of CHANNEL_TYPES.values()) if (type.name.toLowerCase() === wanted) return type.id;
  return refuse(`unknown channel type "${value}": give its number or a name such as OpenAI or Anthropic`);
}

/** A time as the services take it, unix seconds: "never" is `never` (-1 for tokens, 0 for codes), else seconds or a date. */
export function unixTimeOf(value: unknown, never: number, what: string): number {
  if (value === "never" || value === never) return never;
  if (typeof value === "number" || (typeof value === "string" && /^\s*\d+\s*$/.test(value))) return Number(value);
  const ms = value instanceof Date ? value.getTime() : typeof value === "string" ? Date.parse(value) : NaN;
  return Number.isNaN(ms)
    ? refuse(`${what} must be "never", unix seconds or a date such as 2026-12-31`)
    : Math.floor(ms / 1000);
}
