import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { PASSWORD_MIN } from "../../../shared/constants";
import type { UserView } from "../../../shared/views/user";
import { api } from "../../api";
import { SelectField } from "../../components/form/SelectField";
import { TextField } from "../../components/form/TextField";
import { isLimitText, RateLimitFields } from "../../components/form/RateLimitFields";
import { changedKeys } from "../../diff";
import { showQuota } from "../../state/status";
import { toast } from "../../state/toasts";
import { useApiData } from "../../use-api-data";
import { SubmitOrCancel } from "../../components/form/FormButtons";

const EDITABLE = ["username", "display_name", "password", "group", "remark", "rpm_limit", "tpm_limit"] as const;
const NUMERIC = new Set(["rpm_limit", "tpm_limit"]);
type Editable = Record<(typeof EDITABLE)[number], string>;

const editableOf = (user: UserView): Editable => ({
  username: user.username,
  display_name: user.display_name,
  password: "",
  group: user.group,
  remark: user.remark ?? "",
  rpm_limit: String(user.rpm_limit ?? 0),
  tpm_limit: String(user.tpm_limit ?? 0),
});

/** Edits one user: only changed fields are sent; the quota addition may be negative (quota = current + addition). */
export function EditUserForm({ id, onSaved, onCancel }: { id: number; onSaved: () => void; onCancel: () => void }) {
  const { t } = useLingui();
  const user = useApiData<UserView>(`/api/user/${id}`);
  const groups = useApiData<string[]>("/api/group/");
  const [form, setForm] = useState<Editable | null>(null);
  const [addition, setAddition] = useState("0");
  useEffect(() => {
    if (user.data) setForm(editableOf(user.data));
  }, [user.data]);
  if (!user.data || !form) return <span className="loading loading-spinner" />;
  const loaded = user.data;
  const set = (key: keyof Editable) => (value: string) => setForm({ ...form, [key]: value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const delta = Number(addition || 0);
    if (!Number.isInteger(delta)) return toast.error(t`Check the input`);
    if (!isLimitText(form.rpm_limit) || !isLimitText(form.tpm_limit))
      return toast.error(t`Limits per minute must be whole numbers (0 for none)`);
    if (form.password && form.password.length < PASSWORD_MIN)
      return toast.error(t`The password must be at least ${PASSWORD_MIN} characters`);
    const changed = changedKeys(editableOf(loaded), form);
    if (changed.length === 0 && delta === 0) return toast.info(t`Nothing changed`);
    const body: Record<string, unknown> = { id };
    for (const key of changed) body[key] = NUMERIC.has(key) ? Number(form[key]) : form[key];
    if (delta !== 0) body.quota = loaded.quota + delta;
    const reply = await api.put("/api/user/", body);
    if (!reply.ok) return;
    toast.success(t`User updated`);
    onSaved();
  };

  const groupOptions = (groups.data ?? [loaded.group]).map((g) => ({ value: g, label: g }));
  const bindings: [string, string][] = [
    [t`Email`, loaded.email],
    ["GitHub", loaded.github_id],
    [t`WeChat`, loaded.wechat_id],
    ["Telegram", loaded.telegram_id],
  ];
  return (
    <form onSubmit={submit} className="flex flex-col gap-1" data-testid="edit-user-form">
      <TextField label={t`Username`} name="username" value={form.username} onChange={set("username")} />
      <TextField label={t`Display name`} name="display_name" value={form.display_name} onChange={set("display_name")} />
      <TextField
        label={t`Password`}
        name="password"
        type="password"
        value={form.password}
        onChange={set("password")}
        hint={t`Leave empty to keep the password; at least ${PASSWORD_MIN} characters`}
        autoComplete="new-password"
      />
      <SelectField label={t`Group`} name="group" value={form.group} options={groupOptions} onChange={set("group")} />
      <TextField
        label={t`Add quota (negative to subtract)`}
        name="quota_addition"
        type="number"
        step="1"
        value={addition}
        onChange={setAddition}
        hint={t`Current balance ${showQuota(loaded.quota)}; after saving ${showQuota(loaded.quota + (Number(addition) || 0))}`}
      />
      <TextField label={t`Remark`} name="remark" value={form.remark} onChange={set("remark")} />
      <RateLimitFields
        rpm={form.rpm_limit}
        tpm={form.tpm_limit}
        onRpm={set("rpm_limit")}
        onTpm={set("tpm_limit")}
        zeroMeans={t`0: the group's default, if any`}
      />
      <div className="text-sm mt-2" data-testid="bindings">
        {bindings.map(([name, value]) => (
          <div key={name}>
            {name}: {value || <span className="opacity-60">{t`not bound`}</span>}
          </div>
        ))}
      </div>
      <SubmitOrCancel submit={<Trans>Save</Trans>} onCancel={onCancel} />
    </form>
  );
}
