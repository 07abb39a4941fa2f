import { isEmailTaken } from "../../db/queries/users";
import type { ServiceContext } from "../context";
import { randomDigits } from "../crypto";
import { refuse } from "../errors";
import type { MailLanguage } from "../mail/language";
import { sendMail } from "../mail/send";
import { MAILS } from "../mail/templates";
import { checkCode, dropCode, storeCode } from "./codes";
import type { AccountCodeRow } from "../../db/queries/account-codes";
import { checkEmailAddress } from "./email-rules";
import { verifyHumanCheck } from "./human-check";
import { limitMailRequest } from "./mail-limits";

export const CODE_WRONG = "verification code is wrong or has expired";
export const EMAIL_IN_USE = "email is already in use";
const VALID_MINUTES = 10;

/** Who asks for a mail: the client's address, the reader's language and the human-check token. */
export interface MailRequest {
  clientIp: string;
  language: MailLanguage;
  turnstile?: unknown;
}

/**
 * GET /api/verification: after the human check and the address rules, mails a 6-digit code valid 10 minutes to an
 * address no account uses; sending again within 30 seconds, or too often, is refused.
 */
export async function sendVerificationCode(ctx: ServiceContext, emailInput: unknown, request: MailRequest) {
  await verifyHumanCheck(ctx, request.turnstile, request.clientIp);
  const email = checkEmailAddress(ctx.options, emailInput);
  if (await isEmailTaken(ctx.db, email)) refuse(EMAIL_IN_USE);
  await limitMailRequest(ctx, "email", email, request.clientIp);
  const code = randomDigits(6);
  await storeCode(ctx, "email", email, code, VALID_MINUTES * 60);
  const mail = MAILS.verificationCode(ctx.options.raw("SystemName"), code, VALID_MINUTES)[request.language];
  await sendMail(ctx, { to: email, ...mail }).catch(async (error) => {
    await dropCode(ctx, "email", email, code);
    throw error;
  });
}

/** The code mailed to `email` when it matches (not used up yet: see spendCheckedCode); else refused. */
export const checkVerificationCode = (ctx: ServiceContext, email: string, code: unknown): Promise<AccountCodeRow> =>
  checkCode(ctx, "email", email.trim().toLowerCase(), typeof code === "string" ? code.trim() : "", CODE_WRONG);
