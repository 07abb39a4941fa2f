import { useLingui } from "@lingui/react/macro";
import type { Pricing } from "../../../shared/views/pricing";
import { ratioBadge } from "./pricing";

/** The viewer's usable groups as buttons, each with its description and ratio tag; prices follow the chosen one. */
export function GroupPicker({
  usable,
  group,
  onChange,
}: {
  usable: Pricing["usable_group"];
  group: string;
  onChange: (group: string) => void;
}) {
  const { t } = useLingui();
  return (
    <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={t`Group`} data-testid="group-picker">
      {Object.entries(usable).map(([name, { desc, ratio }]) => (
        <button
          key={name}
          type="button"
          role="radio"
          aria-checked={name === group}
          data-group={name}
          className={`btn btn-sm ${name === group ? "btn-primary" : "btn-outline"}`}
          onClick={() => onChange(name)}
        >
          <span>{desc && desc !== name ? `${name} · ${desc}` : name}</span>
          <span className={`badge badge-sm ${ratioBadge(ratio)}`}>{ratio}x</span>
        </button>
      ))}
    </div>
  );
}
