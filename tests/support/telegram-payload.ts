import { createHash, createHmac } from "node:crypto";

export const FAKE_BOT_TOKEN = "123456:fake-telegram-bot-token";

/**
 * A login widget payload as Telegram signs it: hash = HMAC-SHA256 keyed with SHA256(bot token) over the sorted
 * `key=value` lines of the other fields (written apart from the gateway's check, so each checks the other).
 */
export function telegramPayload(
  fields: { id: string; first_name?: string; username?: string; auth_date?: number },
  botToken = FAKE_BOT_TOKEN,
): Record<string, string> {
  const data: Record<string, string> = {
    auth_date: String(fields.auth_date ?? Math.floor(Date.now() / 1000)),
    id: fields.id,
    first_name: fields.first_name ?? "Tele",
    username: fields.username ?? `tg${fields.id}`,
  };
  const lines = Object.keys(data)
    .sort()
    .map((key) => `${key}=${data[key]}`)
    .join("\n");
  const secret = createHash("sha256").update(botToken).digest();
  return { ...data, hash: createHmac("sha256", secret).update(lines).digest("hex") };
}
