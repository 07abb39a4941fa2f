import type { SourceRow } from "../../db/foreign/source";
import type { OptionKey } from "../../shared/option-keys";
import type { ServiceContext } from "../context";
import { checkConsistency } from "../options/consistency";
import { OPTION_BY_KEY } from "../options/registry";
import { normalizeOptionValue } from "../options/validate";
import { item, type PlanItem } from "./plan";
import { text } from "./values";

/** Options by name, checked as the settings screen saves them; unknown or refused ones are listed as skipped. */
export function planOptions(
  ctx: ServiceContext,
  source: SourceRow[],
): { items: PlanItem[]; values: Map<OptionKey, string> } {
  const values = new Map<OptionKey, string>();
  const items = source.map((row) => {
    const key = text(row, "key");
    const def = OPTION_BY_KEY.get(key);
    if (!def) return item("option", key, "skip", { reason: "Tollgate has no such option" });
    let stored: string;
    try {
      stored = normalizeOptionValue(def, text(row, "value"));
      checkConsistency(def.key, stored, (other) => values.get(other) ?? ctx.options.raw(other));
    } catch (error) {
      return item("option", key, "skip", { reason: `value refused: ${(error as Error).message}` });
    }
    if (stored === ctx.options.raw(def.key)) return item("option", key, "unchanged");
    values.set(def.key, stored);
    return item("option", key, "update", { reason: def.secret ? "secret value" : `→ ${stored.slice(0, 40)}` });
  });
  return { items, values };
}
