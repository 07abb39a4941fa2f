import { isOptionKey, type OptionKey } from "../../shared/option-keys";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { MODEL_PRICE_KEYS } from "./registry";

export interface OptionInput {
  key?: unknown;
  value?: unknown;
}

/** Every option for the settings screens; secrets come back blank. */
export const listOptions = (ctx: ServiceContext) => ctx.options.list();

/** A key from outside (request body, command line, file) as an option key, or a refusal naming it. */
export function optionKeyOf(key: unknown): OptionKey {
  if (typeof key !== "string" || key === "") return refuse("key is required");
  return isOptionKey(key) ? key : refuse(`unknown option: ${key}`);
}

/** Saves one option from a {key, value} body; a refusal changes nothing. */
export async function saveOption(ctx: ServiceContext, input: OptionInput): Promise<void> {
  await ctx.options.set(optionKeyOf(input.key), input.value);
}

/** Model ratios, completion ratios and fixed model prices all go back to the shipped defaults. */
export const resetModelPrices = (ctx: ServiceContext) => ctx.options.reset(MODEL_PRICE_KEYS);
