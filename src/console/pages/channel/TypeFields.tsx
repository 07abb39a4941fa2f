import { useLingui } from "@lingui/react/macro";
import { CHANNEL_TYPES, type OtherMeaning } from "../../../shared/channel-types";
import { TextField } from "../../components/form/TextField";
import type { ChannelDraft } from "./channel-form";

export interface OtherField {
  label: string;
  placeholder: string;
  /** A blank value is allowed (the default applies). */
  optional?: boolean;
}

/** What `other` means for the types of spec §2 that ask for it (facts in src/shared/channel-types.ts). */
export function useOtherFields(): Record<number, OtherField> {
  const { t } = useLingui();
  const labels: Record<OtherMeaning, string> = {
    "api-version": t`API version`,
    "spark-version": t`Spark version`,
    "knowledge-base": t`Knowledge base ID`,
    "account-id": t`Account ID`,
    region: t`Region`,
    "bot-id": t`Bot ID`,
  };
  const fields: Record<number, OtherField> = {};
  for (const { id, other } of CHANNEL_TYPES.values()) {
    if (other?.asked)
      fields[id] = {
        label: labels[other.meaning],
        placeholder: other.example,
        ...(other.optional && { optional: true }),
      };
  }
  return fields;
}

interface TypeFieldsProps {
  draft: ChannelDraft;
  set: <K extends keyof ChannelDraft>(key: K) => (value: ChannelDraft[K]) => void;
}

/** The type's own fields: `other` (version, knowledge base, account, region) and OpenAI's organization. */
export function TypeFields({ draft, set }: TypeFieldsProps) {
  const { t } = useLingui();
  const other = useOtherFields()[draft.type];
  return (
    <>
      {other && (
        <TextField
          label={other.label}
          name="other"
          value={draft.other}
          onChange={set("other")}
          placeholder={other.placeholder}
        />
      )}
      {CHANNEL_TYPES.get(draft.type)?.asksOrganization && (
        <TextField
          label={t`Organization (optional)`}
          name="openai_organization"
          value={draft.openai_organization}
          onChange={set("openai_organization")}
          placeholder="org-…"
        />
      )}
    </>
  );
}
