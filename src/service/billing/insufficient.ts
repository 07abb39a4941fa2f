/** A balance (the user's, or a limited token's) that cannot cover what a call must hold. */
export class InsufficientQuotaError extends Error {
  constructor(
    readonly who: "user" | "token",
    readonly available: number,
    readonly needed: number,
  ) {
    super(`${who} quota is not enough: ${available} available, ${needed} needed`);
  }
}
