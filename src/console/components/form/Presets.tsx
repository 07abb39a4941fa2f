import { QUOTA_PER_UNIT } from "../../../shared/constants";
import { platform } from "../../state/status";

/** The quota presets of spec §9, in dollars. */
export const QUOTA_PRESET_DOLLARS = [1, 10, 50, 100, 500, 1000];

/** Small buttons that fill a field: [key, label, apply]. */
export function Presets({ name, presets }: { name: string; presets: [string, string, () => void][] }) {
  return (
    <div className="flex flex-wrap gap-1 mt-1" data-testid={`${name}-presets`}>
      {presets.map(([key, label, apply]) => (
        <button key={key} type="button" className="btn btn-xs" data-preset={key} onClick={apply}>
          {label}
        </button>
      ))}
    </div>
  );
}

/** The $1 … $1000 quota presets; each fills the field with that many dollars' worth of quota units. */
export function QuotaPresets({ onPick }: { onPick: (quota: string) => void }) {
  const perUnit = platform.value?.quota_per_unit || QUOTA_PER_UNIT;
  const presets = QUOTA_PRESET_DOLLARS.map((dollars): [string, string, () => void] => [
    String(dollars),
    `$${dollars}`,
    () => onPick(String(dollars * perUnit)),
  ]);
  return <Presets name="quota" presets={presets} />;
}
