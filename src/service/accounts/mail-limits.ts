import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { type CodePurpose, secondsSinceSent } from "./codes";

/** Seconds between two mails of one purpose to one address (the console's countdown). */
export const RESEND_SECONDS = 30;

export const TOO_MANY_MAILS = "too many requests, please try again later";

/**
 * The limits of mails sent on request: per client address, then the 30-second lock and the hourly count per
 * recipient. Refused with 429, before anything is stored or sent.
 */
export async function limitMailRequest(
  ctx: ServiceContext,
  purpose: CodePurpose,
  recipient: string,
  clientIp: string,
): Promise<void> {
  if (!(await ctx.addressLimits.hit("emailPerAddress", clientIp))) refuse(TOO_MANY_MAILS, 429);
  const since = await secondsSinceSent(ctx, purpose, recipient);
  if (since !== undefined && since < RESEND_SECONDS) {
    refuse(`mails are sent too often, please wait ${RESEND_SECONDS - since} seconds and retry`, 429);
  }
  if (!(await ctx.addressLimits.hit("emailPerRecipient", `${purpose}:${recipient}`))) refuse(TOO_MANY_MAILS, 429);
}
