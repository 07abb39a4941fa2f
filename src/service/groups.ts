import type { ServiceContext } from "./context";

/** Group names known to pricing (the keys of GroupRatio). */
export function groupNames(ctx: ServiceContext): string[] {
  return Object.keys(ctx.options.json<Record<string, number>>("GroupRatio"));
}

export function groupRatio(ctx: ServiceContext, group: string): number {
  const ratio = ctx.options.json<Record<string, number>>("GroupRatio")[group];
  return typeof ratio === "number" ? ratio : 1;
}

/** Groups a user may pick for tokens and the playground, with description and ratio; the user's own group is always there. */
export function usableGroups(ctx: ServiceContext, userGroup: string): Record<string, { desc: string; ratio: number }> {
  const described = ctx.options.json<Record<string, string>>("UserUsableGroups");
  const result: Record<string, { desc: string; ratio: number }> = {};
  for (const [name, desc] of Object.entries(described))
    result[name] = { desc: String(desc), ratio: groupRatio(ctx, name) };
  if (!result[userGroup]) result[userGroup] = { desc: userGroup, ratio: groupRatio(ctx, userGroup) };
  return result;
}
