import { PASSWORD_MAX, PASSWORD_MIN } from "../../shared/constants";
import { refuse } from "../errors";

/** argon2id; the cost can be lowered by PASSWORD_HASH_MEMORY_KIB for test machines. */
const memoryCost = Number(process.env.PASSWORD_HASH_MEMORY_KIB) || 19456;

export const hashPassword = (password: string): Promise<string> =>
  Bun.password.hash(password, { algorithm: "argon2id", memoryCost, timeCost: 2 });

/** The stored password of a user who has none (created through third-party sign-in): no password matches it. */
export const NO_PASSWORD = "";

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (hash === NO_PASSWORD) return false;
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check when there is no user, so timing does not reveal who exists. */
export async function verifyAgainstNobody(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomUUID());
  await verifyPassword(password, await dummyHash);
  return false;
}

export function checkPasswordRules(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    refuse(`password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
}
