import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import type { MailLanguage } from "./language";
import { sendMail } from "./send";
import { MAILS } from "./templates";

/** Root's "send test mail": to the given address, else root's own; a failure names its reason (never the password). */
export async function sendTestMail(
  ctx: ServiceContext,
  caller: UserRow,
  to: unknown,
  language: MailLanguage,
): Promise<string> {
  const address = (typeof to === "string" && to.trim()) || caller.email || "";
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) refuse("give an email address to send the test mail to");
  const mail = MAILS.testMail(ctx.options.raw("SystemName"))[language];
  await sendMail(ctx, { to: address, ...mail }, "failed to send the test mail: {reason}");
  return address;
}
