import type { UserRow } from "../db/schema";
import type { ServiceContext } from "./context";
import { modelFactorsOf } from "./billing/pricing";
import { usableGroups } from "./groups";

/**
 * Model names a user can call: those enabled channels serve in any of the user's usable groups and that
 * have a price (an unpriced model is refused by the relay, so offering it would only lead to that refusal).
 */
export async function usableModels(ctx: ServiceContext, user: UserRow): Promise<string[]> {
  const models = new Set<string>();
  for (const group of Object.keys(usableGroups(ctx, user.group))) {
    for (const model of ctx.relay.routes.modelsOf(group)) models.add(model);
  }
  return [...models].filter((model) => modelFactorsOf(ctx, model) !== undefined).sort();
}
