import type * as Otp from "otpauth";
import { advanceTotpStep, replaceRecoveryCodes, updateUser } from "../../db/queries/users";
import type { UserRow } from "../../db/schema";
import { Role } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { keyedHash, randomAlphanumeric } from "../crypto";
import { refuse } from "../errors";
import { manageableUser } from "../users/admin-access";

const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;

export const TWO_FACTOR_CODE_WRONG = "two-factor code is wrong";
export const TWO_FACTOR_REQUIRED =
  "administrators must turn on two-factor sign-in first (personal settings, two-factor sign-in)";

export const twoFactorEnabled = (user: UserRow): boolean => user.totp_recovery !== null && user.totp_secret !== "";

/** Option TwoFactorRequiredForAdmins: an admin (role ≥ 10) without two-factor sign-in must set it up first. */
export const mustSetUpTwoFactor = (ctx: ServiceContext, user: UserRow): boolean =>
  ctx.options.bool("TwoFactorRequiredForAdmins") && user.role >= Role.Admin && !twoFactorEnabled(user);

/** Admin calls are refused to an admin who must still set up two-factor sign-in. */
export function refuseAdminWithoutTwoFactor(ctx: ServiceContext, user: UserRow, minRole: number): void {
  if (minRole >= Role.Admin && mustSetUpTwoFactor(ctx, user)) refuse(TWO_FACTOR_REQUIRED);
}

const seal = (ctx: ServiceContext, plain: string) => ctx.db.secrets?.seal(plain) ?? plain;
const open = (ctx: ServiceContext, stored: string) => ctx.db.secrets?.open(stored) ?? stored;

/** otpauth, loaded on the first two-factor check: every loaded module is marked by each full collection. */
const otp = (): typeof Otp => require("otpauth");

const totpOf = (ctx: ServiceContext, user: UserRow, base32: string) =>
  new (otp().TOTP)({
    issuer: ctx.options.raw("SystemName"),
    label: user.username,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: otp().Secret.fromBase32(base32),
  });

const recoveryHash = (ctx: ServiceContext, userId: number, code: string) =>
  keyedHash(ctx.secret, `recovery:${userId}:${code.replace(/[\s-]/g, "").toUpperCase()}`);

/** The time step of a TOTP code that matches now (±1 step), or undefined. */
function matchingStep(ctx: ServiceContext, user: UserRow, base32: string, code: string): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(ctx, user, base32).validate({ token: code, window: 1 });
  return delta === null ? undefined : Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + delta;
}

/** A fresh TOTP secret (kept encrypted, not yet in force) and the otpauth:// address an authenticator app reads. */
export async function beginTwoFactorSetup(
  ctx: ServiceContext,
  user: UserRow,
): Promise<{ secret: string; uri: string }> {
  if (twoFactorEnabled(user)) refuse("two-factor sign-in is already on");
  const secret = new (otp().Secret)({ size: 20 }).base32;
  await updateUser(ctx.db, user.id, { totp_secret: seal(ctx, secret), totp_recovery: null, totp_last_step: 0 });
  ctx.users.forget(user.id);
  return { secret, uri: totpOf(ctx, user, secret).toString() };
}

/** Turns two-factor sign-in on with a code of the app; answers the recovery codes, shown this once. */
export async function enableTwoFactor(ctx: ServiceContext, user: UserRow, input: unknown): Promise<string[]> {
  if (twoFactorEnabled(user)) refuse("two-factor sign-in is already on");
  if (!user.totp_secret) refuse("start the two-factor setup first");
  const code = typeof input === "string" ? input.trim() : "";
  const step = matchingStep(ctx, user, open(ctx, user.totp_secret), code);
  if (step === undefined) refuse(TWO_FACTOR_CODE_WRONG);
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomAlphanumeric(10).toUpperCase();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  const hashes = codes.map((c) => recoveryHash(ctx, user.id, c));
  await updateUser(ctx.db, user.id, { totp_recovery: JSON.stringify(hashes), totp_last_step: step });
  ctx.users.forget(user.id);
  return codes;
}

/**
 * Whether `input` is a current code of the user's app (each time step accepted once) or one of the unused recovery
 * codes (then used up). Either way at most once, even for two requests at the same moment.
 */
export async function passesSecondFactor(ctx: ServiceContext, user: UserRow, input: unknown): Promise<boolean> {
  if (!twoFactorEnabled(user)) return false;
  const code = typeof input === "string" ? input.trim() : "";
  if (!code) return false;
  const step = matchingStep(ctx, user, open(ctx, user.totp_secret), code);
  if (step !== undefined) return advanceTotpStep(ctx.db, user.id, step);
  const before = user.totp_recovery!;
  const hashes = JSON.parse(before) as string[];
  const hash = recoveryHash(ctx, user.id, code);
  if (!hashes.includes(hash)) return false;
  const used = await replaceRecoveryCodes(ctx.db, user.id, before, JSON.stringify(hashes.filter((h) => h !== hash)));
  ctx.users.forget(user.id);
  return used;
}

/** Turns two-factor sign-in off; needs a current code (or a recovery code). */
export async function disableTwoFactor(ctx: ServiceContext, user: UserRow, code: unknown): Promise<void> {
  if (!twoFactorEnabled(user)) refuse("two-factor sign-in is not on");
  if (!(await passesSecondFactor(ctx, user, code))) refuse(TWO_FACTOR_CODE_WRONG);
  await updateUser(ctx.db, user.id, { totp_secret: "", totp_recovery: null, totp_last_step: 0 });
  ctx.users.forget(user.id);
}

export const twoFactorStatus = (ctx: ServiceContext, user: UserRow) => ({
  enabled: twoFactorEnabled(user),
  recovery_codes_left: twoFactorEnabled(user) ? (JSON.parse(user.totp_recovery!) as string[]).length : 0,
  required: mustSetUpTwoFactor(ctx, user),
});

/** An admin clears a user's two-factor sign-in (a lost phone and lost recovery codes): only of a lower role. */
export async function clearTwoFactorAsAdmin(ctx: ServiceContext, actor: UserRow, userId: number): Promise<void> {
  const target = await manageableUser(ctx, actor, userId);
  if (!twoFactorEnabled(target) && !target.totp_secret) refuse("two-factor sign-in is not on");
  await updateUser(ctx.db, target.id, { totp_secret: "", totp_recovery: null, totp_last_step: 0 });
  ctx.users.forget(target.id);
}
