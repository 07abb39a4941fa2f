import { inTransaction } from "../../db/exec";
import { isEmailTaken, updateUser } from "../../db/queries/users";
import type { UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { spendCheckedCode } from "./codes";
import { checkEmailAddress } from "./email-rules";
import { CODE_WRONG, EMAIL_IN_USE, checkVerificationCode } from "./verification";

/** Binds an address to the signed-in user with the code /api/verification mailed to it; one account per address. */
export async function bindEmail(
  ctx: ServiceContext,
  user: UserRow,
  input: { email?: unknown; code?: unknown },
): Promise<void> {
  const email = checkEmailAddress(ctx.options, input.email);
  if (typeof input.code !== "string" || !input.code.trim()) refuse("verification code is required");
  if (await isEmailTaken(ctx.db, email, user.id)) refuse(EMAIL_IN_USE);
  const code = await checkVerificationCode(ctx, email, input.code);
  await inTransaction(ctx.db, async (tx) => {
    await spendCheckedCode(tx, code, CODE_WRONG);
    await updateUser(tx, user.id, { email });
  });
  ctx.users.forget(user.id);
}
