import type { UserRow } from "../../db/schema";
import { AUTO_GROUP } from "../../shared/constants";
import type { ServiceContext } from "../context";
import { usableGroups } from "../groups";

/** The groups a call may be served from, in order: its own, or for 'auto' the usable AutoGroups. */
export function routeGroups(ctx: ServiceContext, user: UserRow, group: string): string[] {
  if (group !== AUTO_GROUP) return [group];
  const usable = usableGroups(ctx, user.group);
  return ctx.options.json<string[]>("AutoGroups").filter((g) => g !== AUTO_GROUP && g in usable);
}
