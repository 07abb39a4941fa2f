import { useLingui } from "@lingui/react/macro";
import { TextArea } from "../../components/form/TextArea";
import type { ChannelDraft } from "./channel-form";

type JsonKey = "model_mapping" | "status_code_mapping" | "setting" | "param_override" | "header_override";

const TEMPLATES: Record<JsonKey, string> = {
  model_mapping: JSON.stringify({ "gpt-4o": "gpt-4o-2024-11-20" }, null, 2),
  status_code_mapping: JSON.stringify({ "400": "500" }, null, 2),
  setting: JSON.stringify({ force_format: true }, null, 2),
  param_override: JSON.stringify({ temperature: 0.2 }, null, 2),
  header_override: JSON.stringify({ "X-Team": "research", "X-Trace": "{client_header:X-Trace}" }, null, 2),
};

interface JsonFieldsProps {
  draft: ChannelDraft;
  set: (key: JsonKey) => (value: string) => void;
}

/** The channel's JSON text fields, each with a template to start from; checked before sending. */
export function JsonFields({ draft, set }: JsonFieldsProps) {
  const { t } = useLingui();
  const fields: [JsonKey, string, string][] = [
    ["model_mapping", t`Model mapping (JSON)`, t`Requested model to upstream model`],
    ["status_code_mapping", t`Status code override (JSON)`, t`Upstream status to the status clients see`],
    ["setting", t`Extra settings (JSON)`, t`Channel settings as a JSON object`],
    ["param_override", t`Parameter override (JSON)`, t`Merged into every upstream request body, last`],
    [
      "header_override",
      t`Header override (JSON)`,
      t`Extra upstream headers; a value naming a client header (see the template) copies it`,
    ],
  ];
  return (
    <>
      {fields.map(([key, label, hint]) => (
        <TextArea
          key={key}
          label={label}
          name={key}
          value={draft[key]}
          onChange={set(key)}
          rows={3}
          monospace
          placeholder={TEMPLATES[key]}
          hint={
            <span className="flex gap-2">
              {hint}
              <button
                type="button"
                className="link"
                data-action={`template-${key}`}
                onClick={() => set(key)(TEMPLATES[key])}
              >
                {t`Fill template`}
              </button>
            </span>
          }
        />
      ))}
    </>
  );
}
