import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { api } from "../../api";
import { SubmitOrCancel } from "../../components/form/FormButtons";
import { TextField } from "../../components/form/TextField";
import { QuotaPresets } from "../../components/form/Presets";
import { SidePanel } from "../../components/SidePanel";
import { showQuota } from "../../state/status";
import { toast } from "../../state/toasts";
import { BATCH_MAX, DEFAULT_QUOTA, NAME_MAX, type Redemption } from "./redemption-api";

interface RedemptionPanelProps {
  /** Absent: create. */
  code?: Redemption;
  onClose: () => void;
  /** Created codes' keys (create) or none (edit). */
  onSaved: (keys: string[]) => void;
}

const wholeIn = (text: string, min: number, max: number) =>
  /^\s*\d+\s*$/.test(text) && Number(text) >= min && Number(text) <= max;

/** Creates up to 100 codes alike, or edits an unused code's name and quota. */
export function RedemptionPanel({ code, onClose, onSaved }: RedemptionPanelProps) {
  const { t } = useLingui();
  const [form, setForm] = useState({ name: code?.name ?? "", quota: String(code?.quota ?? DEFAULT_QUOTA), count: "1" });
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const quota = Number(form.quota);

  const problem = () => {
    if (form.name.trim().length > NAME_MAX) return t`The name must be at most ${NAME_MAX} characters`;
    if (!wholeIn(form.quota, 1, Number.MAX_SAFE_INTEGER)) return t`The quota must be a positive integer`;
    if (!code && !wholeIn(form.count, 1, BATCH_MAX)) return t`The count must be between 1 and ${BATCH_MAX}`;
    return undefined;
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const refused = problem();
    if (refused) return toast.error(refused);
    const fields = { name: form.name.trim(), quota };
    const reply = code
      ? await api.put("/api/redemption/", { id: code.id, ...fields })
      : await api.post<string[]>("/api/redemption/", { ...fields, count: Number(form.count) });
    if (!reply.ok) return;
    toast.success(code ? t`Redemption code updated` : t`Redemption codes created`);
    onSaved(Array.isArray(reply.data) ? reply.data : []);
  };
  return (
    <SidePanel
      title={code ? <Trans>Edit redemption code</Trans> : <Trans>Add redemption codes</Trans>}
      onClose={onClose}
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-1" data-testid="redemption-form">
        <TextField
          label={t`Name`}
          name="name"
          value={form.name}
          onChange={set("name")}
          hint={t`At most ${NAME_MAX} characters; blank uses the quota as the name`}
        />
        <TextField
          label={t`Quota`}
          name="quota"
          type="number"
          step="1"
          value={form.quota}
          onChange={set("quota")}
          hint={Number.isFinite(quota) ? t`Equals ${showQuota(quota)}` : undefined}
        />
        <QuotaPresets onPick={set("quota")} />
        {!code && (
          <TextField
            label={t`How many to create`}
            name="count"
            type="number"
            step="1"
            value={form.count}
            onChange={set("count")}
            hint={t`1 to ${BATCH_MAX}`}
          />
        )}
        <SubmitOrCancel submit={<Trans>Submit</Trans>} onCancel={onClose} />
      </form>
    </SidePanel>
  );
}
