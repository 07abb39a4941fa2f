import { inTransaction } from "../../db/exec";
import { addUserQuota, creditInviter, findLiveUserByAffCode } from "../../db/queries/users";
import { LogType } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { quotaText } from "../quota-text";
import { recordBalanceChange } from "../ledger";
import { insertPreparedUser, prepareUser } from "../users/create";
import { checkVerificationCode } from "./verification";

export interface RegisterInput {
  username?: unknown;
  password?: unknown;
  password2?: unknown;
  email?: unknown;
  verification_code?: unknown;
  aff_code?: unknown;
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

/** Password registration: the site's switches, the rules, then the user and every grant in one transaction. */
export async function register(ctx: ServiceContext, input: RegisterInput): Promise<number> {
  const { options } = ctx;
  if (!options.bool("RegisterEnabled")) refuse("new user registration is disabled by the administrator");
  if (!options.bool("PasswordRegisterEnabled")) {
    refuse("registration with a password is disabled by the administrator, please use third-party sign-in");
  }
  const username = str(input.username);
  const password = str(input.password);
  if (!username.trim() || !password) refuse("username and password are required");
  if (input.password2 !== undefined && input.password2 !== password) refuse("the two passwords do not match");
  const email = str(input.email).trim();
  if (options.bool("EmailVerificationEnabled")) {
    if (!email || !str(input.verification_code)) refuse("email and verification code are required");
    checkVerificationCode(email, str(input.verification_code));
  }
  const prepared = await prepareUser({ username, password, email: email || undefined });
  const affCode = str(input.aff_code).trim();

  let inviterId = 0;
  const id = await inTransaction(ctx.db, async (tx) => {
    const inviter = affCode ? await findLiveUserByAffCode(tx, affCode) : undefined;
    if (inviter) prepared.inviter_id = inviterId = inviter.id;
    const newId = await insertPreparedUser(tx, prepared);
    const grant = async (quota: number, content: string) => {
      if (quota <= 0) return;
      await addUserQuota(tx, newId, quota);
      await recordBalanceChange(tx, {
        userId: newId,
        username: prepared.username,
        type: LogType.System,
        quota,
        content,
      });
    };
    const newUserQuota = options.num("QuotaForNewUser");
    await grant(newUserQuota, `new user registration bonus ${quotaText(ctx, newUserQuota)}`);
    if (inviter) {
      const inviteeQuota = options.num("QuotaForInvitee");
      await grant(inviteeQuota, `invitation code bonus ${quotaText(ctx, inviteeQuota)}`);
      const reward = options.num("QuotaForInviter");
      await creditInviter(tx, inviter.id, reward);
      if (reward > 0) {
        await recordBalanceChange(tx, {
          userId: inviter.id,
          username: inviter.username,
          type: LogType.System,
          quota: reward,
          content: `invitation reward ${quotaText(ctx, reward)} to the affiliate balance for inviting ${prepared.username}`,
        });
      }
    }
    return newId;
  });
  if (inviterId) ctx.users.forget(inviterId);
  return id;
}
