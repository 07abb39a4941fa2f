import { saveOption } from "../../service/options/admin";
import { checkConsistency } from "../../service/options/consistency";
import { OPTION_BY_KEY, OPTION_DEFS, type OptionDef } from "../../service/options/registry";
import { normalizeOptionValue } from "../../service/options/validate";
import type { ServiceContext } from "../../service/context";
import type { OptionKey } from "../../shared/option-keys";
import { refuse } from "../../service/errors";
import { at, step, type Planner, type Step } from "./plan";

/**
 * Options by key. The value is checked and normalized as the API saves it, and compared with the stored
 * form; secret options are compared too but their values never appear in a plan.
 */
export async function planOptions({ ctx }: Planner, options: Record<string, unknown>): Promise<Step[]> {
  const steps: Step[] = [];
  /** The values as they will be once the options before this one are saved, for the rules between options. */
  const planned = new Map<OptionKey, string>();
  const plannedValueOf = (key: OptionKey) => planned.get(key) ?? ctx.options.raw(key);
  for (const [key, value] of Object.entries(options)) {
    const def = OPTION_BY_KEY.get(key) ?? refuse(`options: unknown option "${key}"`);
    const stored = await at(`options.${key}`, () => {
      const normalized = normalizeOptionValue(def, value);
      checkConsistency(def.key, normalized, plannedValueOf);
      return normalized;
    });
    const current = ctx.options.raw(def.key);
    planned.set(def.key, stored);
    const changes =
      stored === current ? [] : [def.secret ? { field: "value" } : { field: "value", from: current, to: stored }];
    steps.push(step("option", key, "update", changes, () => saveOption(ctx, { key, value: stored })));
  }
  return steps;
}

/** The stored text as a value for the file: booleans, numbers and JSON as themselves. */
function fileValue(def: OptionDef, stored: string): unknown {
  if (def.kind === "bool") return stored === "true";
  if (def.kind === "int" || def.kind === "float") return Number(stored);
  if (def.kind === "json") return JSON.parse(stored);
  return stored;
}

/** The options that differ from their defaults; secret ones only `withSecrets`. */
export function exportOptions(ctx: ServiceContext, withSecrets: boolean): Record<string, unknown> | undefined {
  const entries = OPTION_DEFS.filter(
    (def) => (withSecrets || !def.secret) && ctx.options.raw(def.key) !== def.default,
  ).map((def) => [def.key, fileValue(def, ctx.options.raw(def.key))]);
  return entries.length ? Object.fromEntries(entries) : undefined;
}
