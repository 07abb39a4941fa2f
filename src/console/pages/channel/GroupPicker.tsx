import { useLingui } from "@lingui/react/macro";
import { Field } from "../../components/form/Field";
import { useApiData } from "../../use-api-data";

/** The channel's groups, chosen among the site's groups (GET /api/group/) and those it already has. */
export function GroupPicker({ groups, onChange }: { groups: string[]; onChange: (groups: string[]) => void }) {
  const { t } = useLingui();
  const known = useApiData<string[]>("/api/group/");
  const offered = [...new Set([...(known.data ?? []), ...groups])];
  const toggle = (group: string) =>
    onChange(groups.includes(group) ? groups.filter((g) => g !== group) : [...groups, group]);
  return (
    <Field label={t`Groups`}>
      <div className="flex flex-wrap gap-3" data-testid="groups">
        {offered.map((group) => (
          <label key={group} className="label cursor-pointer gap-1 text-base-content">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              name="groups"
              value={group}
              checked={groups.includes(group)}
              onChange={() => toggle(group)}
            />
            {group}
          </label>
        ))}
      </div>
    </Field>
  );
}
