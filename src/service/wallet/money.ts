/** Money in whole cents, so comparisons and sums are exact; half a cent rounds up. */
export const toCents = (amount: number): number => Math.round(Number((amount * 100).toFixed(6)));

/** Cents of a decimal text such as "7.30", or NaN when the text is not a plain decimal. */
export const centsOfText = (text: string | undefined): number =>
  /^\d+(\.\d+)?$/.test(text ?? "") ? toCents(Number(text)) : NaN;

/** Two decimals, as Epay and the console show money. */
export const moneyText = (cents: number): string => (cents / 100).toFixed(2);
