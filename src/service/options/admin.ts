import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { MODEL_PRICE_KEYS } from "./registry";

export interface OptionInput {
  key?: unknown;
  value?: unknown;
}

/** Every option for the settings screens; secrets come back blank. */
export const listOptions = (ctx: ServiceContext) => ctx.options.list();

/** Saves one option from a {key, value} body; a refusal changes nothing. */
export async function saveOption(ctx: ServiceContext, input: OptionInput): Promise<void> {
  const key = typeof input.key === "string" && input.key !== "" ? input.key : refuse("key is required");
  await ctx.options.set(key, input.value);
}

/** Model ratios, completion ratios and fixed model prices all go back to the shipped defaults. */
export const resetModelPrices = (ctx: ServiceContext) => ctx.options.reset(MODEL_PRICE_KEYS);
