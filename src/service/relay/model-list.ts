import type { ServiceContext } from "../context";
import type { RelayCaller } from "./caller";
import { routeGroups } from "./route-groups";

const CREATED = 1626777600;

/** Models this caller may use: the token's allow-list when it has one, else what its groups' channels serve. */
export function callerModels(ctx: ServiceContext, caller: RelayCaller): string[] {
  const served = new Set(routeGroups(ctx, caller.user, caller.group).flatMap((g) => ctx.relay.routes.modelsOf(g)));
  const token = caller.token;
  if (token?.model_limits_enabled) {
    return token.model_limits
      .split(",")
      .map((m) => m.trim())
      .filter((m) => m && served.has(m));
  }
  return [...served].sort();
}

export const modelObject = (id: string) => ({ id, object: "model", created: CREATED, owned_by: "tollgate" });
