import { inTransaction } from "../../db/exec";
import { addUserQuota, creditInviter, findLiveUserByAffCode } from "../../db/queries/users";
import { LogType } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { quotaText } from "../quota-text";
import { recordBalanceChange } from "../ledger";
import type { Exec } from "../../db/exec";
import { insertPreparedUser, type PreparedUser, prepareUser } from "../users/create";
import { spendCheckedCode } from "./codes";
import { checkEmailAddress } from "./email-rules";
import { verifyHumanCheck } from "./human-check";
import { CODE_WRONG, checkVerificationCode } from "./verification";

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
export async function register(
  ctx: ServiceContext,
  input: RegisterInput,
  caller: { clientIp: string; turnstile?: unknown },
): Promise<number> {
  const { options } = ctx;
  await verifyHumanCheck(ctx, caller.turnstile, caller.clientIp);
  if (!options.bool("RegisterEnabled")) refuse("new user registration is disabled by the administrator");
  if (!options.bool("PasswordRegisterEnabled")) {
    refuse("registration with a password is disabled by the administrator, please use third-party sign-in");
  }
  const username = str(input.username);
  const password = str(input.password);
  if (!username.trim() || !password) refuse("username and password are required");
  if (input.password2 !== undefined && input.password2 !== password) refuse("the two passwords do not match");
  const verify = options.bool("EmailVerificationEnabled");
  if (verify && (!str(input.email).trim() || !str(input.verification_code))) {
    refuse("email and verification code are required");
  }
  const email = str(input.email).trim() ? checkEmailAddress(options, input.email) : "";
  const code = verify ? await checkVerificationCode(ctx, email, input.verification_code) : undefined;
  const prepared = await prepareUser({ username, password, email: email || undefined });
  return insertWithGrants(ctx, prepared, str(input.aff_code).trim(), async (tx) => {
    if (code) await spendCheckedCode(tx, code, CODE_WRONG);
  });
}

/**
 * Inserts a new user with the site's grants in one transaction: QuotaForNewUser, and when `affCode` names a
 * live user, QuotaForInvitee to the new user and QuotaForInviter to the inviter's affiliate balance; `alongside`
 * runs in the same transaction (spending the registration's emailed code, so a refused insert leaves it usable).
 */
export async function insertWithGrants(
  ctx: ServiceContext,
  prepared: PreparedUser,
  affCode: string,
  alongside?: (tx: Exec) => Promise<void>,
): Promise<number> {
  const { options } = ctx;

  let inviterId = 0;
  const id = await inTransaction(ctx.db, async (tx) => {
    const inviter = affCode ? await findLiveUserByAffCode(tx, affCode) : undefined;
    if (inviter) prepared.inviter_id = inviterId = inviter.id;
    const newId = await insertPreparedUser(tx, prepared);
    await alongside?.(tx);
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
