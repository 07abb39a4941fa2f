import { useLingui } from "@lingui/react/macro";
import { CHANNEL_TYPES } from "../../../shared/channel-types";
import type { ChannelDraft } from "./channel-form";
import { isJsonObjectText, tagPriority, tagWeight } from "./channel-rules";
import { useOtherFields } from "./TypeFields";

/** The channel form's rules (spec §5): the first problem's message, or undefined when the draft may be sent. */
export function useDraftCheck() {
  const { t } = useLingui();
  const others = useOtherFields();
  return (d: ChannelDraft, creating: boolean): string | undefined => {
    const other = others[d.type];
    const problems: [boolean, string][] = [
      [!d.name.trim(), t`Please enter the channel name`],
      [creating && !d.key.trim(), t`Please enter the key`],
      [Boolean(CHANNEL_TYPES.get(d.type)?.baseUrlRequired) && !d.base_url.trim(), t`Please enter the base URL`],
      [Boolean(other && !other.optional && !d.other.trim()), t`Please fill in: ${other?.label}`],
      [d.groups.length === 0, t`Please choose at least one group`],
      [d.models.length === 0, t`Please choose at least one model`],
      [!isJsonObjectText(d.model_mapping), t`The model mapping must be valid JSON!`],
      [!isJsonObjectText(d.status_code_mapping), t`The status code override must be valid JSON!`],
      [!isJsonObjectText(d.setting), t`The extra settings must be valid JSON!`],
      [!isJsonObjectText(d.param_override), t`The parameter override must be valid JSON!`],
      [!isJsonObjectText(d.header_override), t`The header override must be valid JSON!`],
    ];
    const found = problems.find(([bad]) => bad)?.[1];
    if (found) return found;
    for (const parsed of [tagPriority(d.priority), tagWeight(d.weight)]) if (!parsed.ok) return parsed.message;
    return undefined;
  };
}
