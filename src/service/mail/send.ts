import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import type { MailMessage } from "./mailer";

export const MAIL_NOT_SET_UP = "email is not set up on this site (SMTP server), contact the administrator";
export const MAIL_FAILED = "failed to send the email, please try again later or contact the administrator";

/** The reason a send failed, as far as it can be told without the SMTP password. */
export function failureReason(ctx: ServiceContext, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const secret = ctx.options.raw("SMTPToken");
  return secret ? text.split(secret).join("***") : text;
}

/**
 * Sends a mail through the site's SMTP server. A failure is logged (recipient and reason, never the password) and
 * refused with `failure` (the reason itself is only for root's test mail).
 */
export async function sendMail(ctx: ServiceContext, message: MailMessage, failure = MAIL_FAILED): Promise<void> {
  if (!ctx.options.raw("SMTPServer").trim()) refuse(MAIL_NOT_SET_UP);
  try {
    await ctx.mail.send(message);
  } catch (error) {
    const reason = failureReason(ctx, error);
    console.error(`[mail] sending "${message.subject}" to ${message.to} failed: ${reason}`);
    refuse(failure.replace("{reason}", reason));
  }
}
