import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api } from "../../api";
import { Field } from "../../components/form/Field";
import { toast } from "../../state/toasts";
import { relatedModels, upstreamModels } from "./channel-calls";
import { splitList } from "./channel-list";

interface ModelPickerProps {
  models: string[];
  onChange: (models: string[]) => void;
  /** Where "fetch from upstream" asks: the saved channel, or the typed type, address and key. */
  source: { id?: number; type: number; base_url: string; key: string };
}

const merged = (current: string[], added: string[]) => [...new Set([...current, ...added])];

/** The channel's models as removable chips, with the helpers of spec §2 and custom names. */
export function ModelPicker({ models, onChange, source }: ModelPickerProps) {
  const { t } = useLingui();
  const [custom, setCustom] = useState("");
  const fill = (found: string[] | undefined, empty: string) => {
    if (!found) return;
    if (found.length === 0) return toast.info(empty);
    onChange(merged(models, found));
  };
  const fillRelated = async () => fill(await relatedModels(source.type), t`No models are known for this type`);
  const fillAll = async () => {
    const reply = await api.get<string[]>("/api/channel/models");
    fill(reply.ok ? reply.data : undefined, t`No models are known`);
  };
  const fetchUpstream = async () => {
    const found = await upstreamModels(source);
    if (found) toast.success(t`${found.length} models fetched from the upstream`);
    fill(found, t`The upstream lists no models`);
  };
  const addCustom = () => {
    const names = splitList(custom);
    const repeated = names.filter((name, i) => models.includes(name) || names.indexOf(name) !== i);
    if (repeated.length > 0) return toast.error(t`Some models already exist: ${repeated.join(", ")}`);
    onChange(merged(models, names));
    setCustom("");
  };
  const helpers: [string, string, () => unknown][] = [
    ["fill-related", t`Fill related models`, fillRelated],
    ["fill-all", t`Fill all models`, fillAll],
    ["fetch-models", t`Fetch from upstream`, fetchUpstream],
    ["clear-models", t`Clear`, () => onChange([])],
  ];
  return (
    <Field label={t`Models (${models.length})`}>
      <div
        className="flex flex-wrap gap-1 max-h-48 overflow-auto p-2 rounded-box bg-base-200 min-h-10"
        data-testid="models"
      >
        {models.map((model) => (
          <span key={model} className="badge badge-sm gap-1" data-model={model}>
            {model}
            <button
              type="button"
              aria-label={t`Remove ${model}`}
              onClick={() => onChange(models.filter((m) => m !== model))}
            >
              ✕
            </button>
          </span>
        ))}
        {models.length === 0 && <span className="text-sm opacity-60">{t`No models chosen`}</span>}
      </div>
      <div className="flex flex-wrap gap-1 mt-1">
        {helpers.map(([id, label, run]) => (
          <button key={id} type="button" className="btn btn-xs" data-action={id} onClick={() => void run()}>
            {label}
          </button>
        ))}
      </div>
      <div className="join w-full mt-1">
        <input
          className="input input-sm join-item flex-1"
          name="custom_models"
          placeholder={t`Custom model names, comma separated`}
          value={custom}
          onChange={(e) => setCustom(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            addCustom();
          }}
        />
        <button type="button" className="btn btn-sm join-item" data-action="add-custom" onClick={addCustom}>
          <Trans>Add</Trans>
        </button>
      </div>
    </Field>
  );
}
