import { useLingui } from "@lingui/react/macro";
import { TextField } from "../../components/form/TextField";
import type { ChannelDraft } from "./channel-form";

export interface OtherField {
  label: string;
  placeholder: string;
  /** A blank value is allowed (the default applies). */
  optional?: boolean;
}

/** What `other` means for the types of spec §2 that ask for it. */
export function useOtherFields(): Record<number, OtherField> {
  const { t } = useLingui();
  const knowledgeBase = { label: t`Knowledge base ID`, placeholder: "123e4567-e89b-12d3-a456-426614174000" };
  return {
    3: { label: t`API version`, placeholder: "2024-10-21" },
    18: { label: t`Spark version`, placeholder: "v3.5" },
    21: knowledgeBase,
    22: knowledgeBase,
    39: { label: t`Account ID`, placeholder: "d6b5da8hk1awo8nap34ube6gh" },
    41: { label: t`Region`, placeholder: "us-central1", optional: true },
  };
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
      {other && <TextField label={other.label} name="other" value={draft.other} onChange={set("other")} placeholder={other.placeholder} />}
      {draft.type === 1 && (
        <TextField label={t`Organization (optional)`} name="openai_organization" value={draft.openai_organization} onChange={set("openai_organization")} placeholder="org-…" />
      )}
    </>
  );
}
