import { claimQuotaReminder, findUserById } from "../../db/queries/users";
import type { ServiceContext } from "../context";
import { sendMail } from "../mail/send";
import { MAILS } from "../mail/templates";
import { nowSeconds } from "../time";
import { quotaText } from "../quota-text";

/** At most one reminder per user in this many seconds. */
export const REMIND_EVERY_SECONDS = 2 * 60 * 60;

/** Where the reminder sends the user to top up: TopUpLink when root set one, else the console's wallet. */
const topUpLink = (ctx: ServiceContext) =>
  ctx.options.raw("TopUpLink").trim() || `${ctx.options.raw("ServerAddress")}/topup`;

/** How long this instance leaves a user alone after another instance (or an earlier check) claimed the reminder. */
const RECHECK_SECONDS = 10 * 60;

/**
 * After charges are written: each user whose balance fell below QuotaRemindThreshold gets a mail with the top-up
 * link, at most once per 2 hours (claimed in the database, so several instances send one). Runs off the relay's
 * path; users checked lately are skipped from memory, so a busy user costs no query per write. A user without an
 * email, a site without SMTP or a failed send is skipped (the failure is logged).
 */
export class QuotaReminder {
  /** Users not to look at again before the given time (unix seconds). */
  private readonly quietUntil = new Map<number, number>();

  constructor(private readonly ctx: ServiceContext) {}

  async check(balances: ReadonlyMap<number, number>): Promise<void> {
    const { ctx } = this;
    const threshold = ctx.options.num("QuotaRemindThreshold");
    if (threshold <= 0 || !ctx.options.raw("SMTPServer").trim()) return;
    const now = nowSeconds();
    for (const [userId, balance] of balances) {
      if (balance >= threshold || (this.quietUntil.get(userId) ?? 0) > now) continue;
      const claimed = await claimQuotaReminder(ctx.db, userId, now, now - REMIND_EVERY_SECONDS);
      this.quietUntil.set(userId, now + (claimed ? REMIND_EVERY_SECONDS : RECHECK_SECONDS));
      if (!claimed) continue;
      const user = await findUserById(ctx.db, userId);
      if (!user?.email || user.deleted_at !== null) continue;
      const mail = MAILS.quotaReminder(
        ctx.options.raw("SystemName"),
        quotaText(ctx, Math.max(0, balance)),
        topUpLink(ctx),
      );
      await sendMail(ctx, { to: user.email, ...mail.zh }).catch(() => {});
    }
    if (this.quietUntil.size > 10_000) {
      for (const [userId, until] of this.quietUntil) if (until <= now) this.quietUntil.delete(userId);
    }
  }
}
