import type { OptionKey } from "../../shared/option-keys";
import { refuse } from "../errors";

/** Online payment sends its notify and return addresses under ServerAddress, so it cannot work without one. */
const PAYMENT_KEYS: readonly OptionKey[] = ["PayAddress", "EpayId", "EpayKey"];

/** Rules between options, checked before a value is saved; `current` reads the other options. */
export function checkConsistency(key: OptionKey, value: string, current: (key: OptionKey) => string): void {
  if (PAYMENT_KEYS.includes(key) && value !== "" && current("ServerAddress") === "") {
    refuse("the server address is required before saving payment settings");
  }
  if (key === "ServerAddress" && value === "" && PAYMENT_KEYS.some((k) => current(k) !== "")) {
    refuse(`clear the payment settings (${PAYMENT_KEYS.join(", ")}) before removing the server address`);
  }
}
