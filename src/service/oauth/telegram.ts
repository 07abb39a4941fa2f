import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { putOneTimeKey } from "../../db/queries/one-time-keys";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import type { UserRow } from "../users/directory";
import type { ExternalAccount } from "./providers";
import { completeSignIn, requireEnabled, type SignInOutcome } from "./sign-in";

/** A login widget payload is accepted for a day after Telegram signed it (auth_date), and only once. */
export const TELEGRAM_FRESH_SECONDS = 86_400;
/** Clocks may differ a little: an auth_date this far ahead of ours still passes. */
const CLOCK_SKEW_SECONDS = 60;

export const TELEGRAM_FORGED = "the Telegram sign-in data is not signed by this site's bot";
export const TELEGRAM_EXPIRED = "the Telegram sign-in data has expired, please sign in with Telegram again";
export const TELEGRAM_REPLAYED = "this Telegram sign-in has already been used, please sign in with Telegram again";

/** Fields the console adds beside the widget's signed ones. */
const UNSIGNED = new Set(["hash", "lang"]);

/**
 * The widget's hash is HMAC-SHA256 over the sorted `key=value` lines of the other fields, keyed with
 * SHA256(TelegramBotToken); then auth_date freshness, then single use (the hash, kept while it could pass).
 */
async function telegramAccount(ctx: ServiceContext, fields: Record<string, string>): Promise<ExternalAccount> {
  const botToken = ctx.options.raw("TelegramBotToken");
  if (!botToken) refuse("Telegram sign-in is not configured: the bot token is required");
  const hash = fields.hash ?? "";
  const checkString = Object.keys(fields)
    .filter((key) => !UNSIGNED.has(key))
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join("\n");
  const expected = createHmac("sha256", createHash("sha256").update(botToken).digest()).update(checkString).digest();
  const given = /^[0-9a-f]{64}$/i.test(hash) ? Buffer.from(hash, "hex") : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) refuse(TELEGRAM_FORGED);
  const authDate = Number(fields.auth_date);
  const now = nowSeconds();
  if (!Number.isInteger(authDate) || authDate > now + CLOCK_SKEW_SECONDS || now - authDate > TELEGRAM_FRESH_SECONDS) {
    refuse(TELEGRAM_EXPIRED);
  }
  const fresh = await putOneTimeKey(
    ctx.db,
    `telegram:${hash.toLowerCase()}`,
    "",
    authDate + TELEGRAM_FRESH_SECONDS + CLOCK_SKEW_SECONDS,
    now,
  );
  if (!fresh) refuse(TELEGRAM_REPLAYED);
  const name = [fields.first_name, fields.last_name].filter(Boolean).join(" ");
  return { provider: "telegram", id: fields.id ?? "", username: fields.username, displayName: name || fields.username };
}

export async function signInWithTelegram(
  ctx: ServiceContext,
  fields: Record<string, string>,
  aff: string,
): Promise<SignInOutcome> {
  requireEnabled(ctx, "telegram");
  return completeSignIn(ctx, await telegramAccount(ctx, fields), { aff });
}

export async function bindTelegram(ctx: ServiceContext, user: UserRow, fields: Record<string, string>): Promise<void> {
  requireEnabled(ctx, "telegram");
  await completeSignIn(ctx, await telegramAccount(ctx, fields), { aff: "", bindTo: user });
}
