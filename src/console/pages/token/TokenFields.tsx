import { useLingui } from "@lingui/react/macro";
import { Field } from "../../components/form/Field";
import { Presets, QuotaPresets } from "../../components/form/Presets";
import { SelectField } from "../../components/form/SelectField";
import { TextField } from "../../components/form/TextField";
import { Toggle } from "../../components/form/Toggle";
import { showQuota } from "../../state/status";
import { useApiData } from "../../use-api-data";
import { BATCH_COUNTS, EXPIRY_PRESETS, expiryAfter, type TokenDraft } from "./token-form";

export interface DraftProps {
  draft: TokenDraft;
  set: <K extends keyof TokenDraft>(key: K) => (value: TokenDraft[K]) => void;
}

export function ExpiryField({ draft, set }: DraftProps) {
  const { t } = useLingui();
  const labels: Record<keyof typeof EXPIRY_PRESETS, string> = {
    never: t`Never expires`,
    hour: t`1 hour`,
    day: t`1 day`,
    month: t`1 month`,
    minute: t`1 minute`,
  };
  const presets = Object.entries(EXPIRY_PRESETS).map(([key, seconds]): [string, string, () => void] => [
    key,
    labels[key as keyof typeof labels],
    () => set("expiry")(expiryAfter(seconds)),
  ]);
  return (
    <>
      <TextField
        label={t`Expiry time`}
        name="expired_time"
        value={draft.expiry}
        onChange={set("expiry")}
        placeholder={t`Never expires`}
        hint={t`yyyy-MM-dd HH:mm:ss; blank never expires`}
      />
      <Presets name="expiry" presets={presets} />
    </>
  );
}

export function QuotaField({ draft, set }: DraftProps) {
  const { t } = useLingui();
  const quota = Number(draft.remain_quota);
  return (
    <>
      <Toggle
        label={t`Unlimited quota`}
        name="unlimited_quota"
        checked={draft.unlimited_quota}
        onChange={set("unlimited_quota")}
      />
      {!draft.unlimited_quota && (
        <>
          <TextField
            label={t`Quota`}
            name="remain_quota"
            type="number"
            step="1"
            value={draft.remain_quota}
            onChange={set("remain_quota")}
            hint={Number.isFinite(quota) ? t`Equals ${showQuota(quota)}` : undefined}
          />
          <QuotaPresets onPick={set("remain_quota")} />
        </>
      )}
    </>
  );
}

export function CountField({ draft, set }: DraftProps) {
  const { t } = useLingui();
  const presets = BATCH_COUNTS.map((n): [string, string, () => void] => [
    String(n),
    String(n),
    () => set("count")(String(n)),
  ]);
  return (
    <>
      <TextField
        label={t`How many to create`}
        name="count"
        type="number"
        step="1"
        value={draft.count}
        onChange={set("count")}
        hint={t`Tokens after the first get the name plus a random 6-character suffix`}
      />
      <Presets name="count" presets={presets} />
    </>
  );
}

export function ModelLimitsField({ draft, set }: DraftProps) {
  const { t } = useLingui();
  const models = useApiData<string[]>("/api/user/models");
  const offered = [...new Set([...(models.data ?? []), ...draft.model_limits])];
  const toggle = (model: string) =>
    set("model_limits")(
      draft.model_limits.includes(model)
        ? draft.model_limits.filter((m) => m !== model)
        : [...draft.model_limits, model],
    );
  return (
    <>
      <Toggle
        label={t`Limit the models this token may use`}
        name="model_limits_enabled"
        checked={draft.model_limits_enabled}
        onChange={set("model_limits_enabled")}
      />
      {draft.model_limits_enabled && (
        <Field label={t`Allowed models`}>
          <div className="flex flex-wrap gap-x-3 max-h-40 overflow-auto" data-testid="model-limits">
            {offered.map((model) => (
              <label key={model} className="label cursor-pointer gap-1 text-base-content text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-xs"
                  name="model_limits"
                  value={model}
                  checked={draft.model_limits.includes(model)}
                  onChange={() => toggle(model)}
                />
                {model}
              </label>
            ))}
            {offered.length === 0 && <span className="text-sm opacity-60">{t`No models are available to you`}</span>}
          </div>
        </Field>
      )}
    </>
  );
}

export function GroupField({ draft, set }: DraftProps) {
  const { t } = useLingui();
  const groups = useApiData<Record<string, { desc: string; ratio: number }>>("/api/user/self/groups");
  const options = [{ value: "", label: t`The user's group` }];
  for (const [name, g] of Object.entries(groups.data ?? {}))
    options.push({ value: name, label: t`${name} · ${g.desc} (ratio ${g.ratio})` });
  if (!options.some((o) => o.value === draft.group)) options.push({ value: draft.group, label: draft.group });
  return <SelectField label={t`Group`} name="group" value={draft.group} options={options} onChange={set("group")} />;
}
