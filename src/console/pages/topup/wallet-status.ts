import { QUOTA_PER_UNIT } from "../../../shared/constants";
import { platform } from "../../state/status";

/** A payment method of the PayMethods option: shown name, Epay type, button colour. */
export interface PayMethod {
  name: string;
  type: string;
  color?: string;
}

/** The wallet's fields of GET /api/status (spec §3 'Server status'). */
interface WalletStatus {
  top_up_link: string;
  min_topup: number;
  enable_online_topup: boolean;
  pay_methods: unknown;
  display_in_currency: boolean;
  quota_per_unit: number;
}

export const walletStatus = (): Partial<WalletStatus> => (platform.value ?? {}) as Partial<WalletStatus>;

/** The payment methods, or undefined when the option is not a list of {name, type} (the 'pay method config error'). */
export function payMethodsOf(value: unknown): PayMethod[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const valid = value.every(
    (m) => m && typeof m === "object" && typeof m.name === "string" && typeof m.type === "string",
  );
  return valid ? (value as PayMethod[]) : undefined;
}

/**
 * The smallest amount the top-up form takes, in what the site displays: min_topup dollars, or that many
 * dollars' worth of quota units when quota is not shown as currency.
 */
export function minimumAmount(status: Partial<WalletStatus>): number {
  const dollars = Math.max(1, status.min_topup ?? 1);
  if (status.display_in_currency !== false) return dollars;
  return Math.ceil(dollars * (status.quota_per_unit || QUOTA_PER_UNIT));
}
