import { useLingui } from "@lingui/react/macro";
import { Field } from "../../components/form/Field";
import { SelectField } from "../../components/form/SelectField";
import { TextArea } from "../../components/form/TextArea";
import { TEMPERATURE, type ChatSettings } from "./chat-request";

interface SettingsPanelProps {
  settings: ChatSettings;
  onChange: (change: Partial<ChatSettings>) => void;
  groups: Record<string, { desc: string; ratio: number }>;
  models: string[];
}

/** Group, model, temperature (0.1–1), max tokens (0: no limit) and the system prompt. */
/** Wider than the spec's phone layout (600 px); read once, when the panel first shows. */
const wideScreen = () => window.matchMedia("(min-width: 601px)").matches;

export function SettingsPanel({ settings, onChange, groups, models }: SettingsPanelProps) {
  const { t } = useLingui();
  const groupOptions = Object.entries(groups).map(([name, { desc, ratio }]) => ({
    value: name,
    label: `${desc || name} (${ratio}x)`,
  }));
  const modelOptions = (models.includes(settings.model) || !settings.model ? models : [settings.model, ...models]).map(
    (m) => ({ value: m, label: m }),
  );
  return (
    <aside className="card bg-base-100 shadow tablet:w-72 shrink-0" data-testid="playground-settings">
      {/* On a phone the settings fold away under one line, so the chat's input shows without scrolling. */}
      <details className="card-body gap-1 p-4" open={wideScreen()}>
        <summary className="cursor-pointer font-medium tablet:hidden" data-testid="settings-summary">
          {t`Settings`}: {settings.model || "—"}
        </summary>
        <SelectField
          label={t`Group`}
          name="group"
          value={settings.group}
          options={groupOptions}
          onChange={(group) => onChange({ group })}
        />
        <SelectField
          label={t`Model`}
          name="model"
          value={settings.model}
          options={modelOptions}
          onChange={(model) => onChange({ model })}
        />
        <Field label={t`Temperature: ${settings.temperature.toFixed(1)}`}>
          <input
            type="range"
            className="range range-sm range-primary"
            name="temperature"
            min={TEMPERATURE.min}
            max={TEMPERATURE.max}
            step={TEMPERATURE.step}
            value={settings.temperature}
            onChange={(e) => onChange({ temperature: Number(e.currentTarget.value) })}
          />
        </Field>
        <Field label={t`Max tokens`} hint={t`0 means no limit`}>
          <input
            type="number"
            className="input w-full"
            name="max_tokens"
            min={0}
            step={1}
            value={settings.maxTokens}
            onChange={(e) => onChange({ maxTokens: Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)) })}
          />
        </Field>
        <TextArea
          label={t`System prompt`}
          name="system"
          rows={4}
          value={settings.system}
          onChange={(system) => onChange({ system })}
          placeholder={t`You are a helpful assistant.`}
        />
      </details>
    </aside>
  );
}
