import { useLingui } from "@lingui/react/macro";
import {
  offersResponsesApi,
  RESPONSES_API_SETTING,
  responsesApiMode,
  type ResponsesApiMode,
} from "../../../shared/responses-api";
import { SelectField } from "../../components/form/SelectField";

/** The setting JSON text with the Responses API mode set ("auto", the default, is left out). */
function withMode(setting: string, mode: ResponsesApiMode): string {
  let object: Record<string, unknown> = {};
  try {
    const parsed = setting.trim() ? JSON.parse(setting) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) object = parsed;
  } catch {
    return setting;
  }
  const { [RESPONSES_API_SETTING]: _, ...rest } = object;
  const next = mode === "auto" ? rest : { ...rest, [RESPONSES_API_SETTING]: mode };
  return Object.keys(next).length > 0 ? JSON.stringify(next, null, 2) : "";
}

interface ResponsesApiFieldProps {
  type: number;
  setting: string;
  onChange: (setting: string) => void;
}

/** How an OpenAI-family channel serves /v1/responses: the `responses_api` key of its extra settings. */
export function ResponsesApiField({ type, setting, onChange }: ResponsesApiFieldProps) {
  const { t } = useLingui();
  if (!offersResponsesApi(type)) return null;
  const options = [
    { value: "auto", label: t`Automatic: pass through, translate if the upstream lacks it` },
    { value: "native", label: t`Always pass through to the upstream's /v1/responses` },
    { value: "translate", label: t`Always translate to chat completions` },
  ];
  return (
    <SelectField
      label={t`Responses API`}
      name={RESPONSES_API_SETTING}
      value={responsesApiMode(setting)}
      options={options}
      onChange={(mode) => onChange(withMode(setting, mode as ResponsesApiMode))}
      hint={t`Stored in the extra settings as responses_api`}
    />
  );
}
