import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../shared/constants";
import { api } from "../../api";
import { SidePanel } from "../../components/SidePanel";
import { TextField } from "../../components/form/TextField";
import { toast } from "../../state/toasts";
import { SubmitOrCancel } from "../../components/form/FormButtons";

export function AddUserPanel({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const { t } = useLingui();
  const [form, setForm] = useState({ username: "", display_name: "", password: "" });
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.username.trim() || !form.password) return toast.error(t`Please enter your username and password`);
    const reply = await api.post("/api/user/", { ...form, username: form.username.trim() });
    if (!reply.ok) return;
    toast.success(t`User created`);
    onCreated();
  };

  return (
    <SidePanel title={<Trans>Add user</Trans>} onClose={onClose}>
      <form onSubmit={submit} className="flex flex-col gap-1" data-testid="add-user-form">
        <TextField label={t`Username`} name="username" value={form.username} onChange={set("username")} />
        <TextField
          label={t`Display name`}
          name="display_name"
          value={form.display_name}
          onChange={set("display_name")}
        />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          value={form.password}
          onChange={set("password")}
          hint={t`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`}
          autoComplete="new-password"
        />
        <SubmitOrCancel submit={<Trans>Submit</Trans>} onCancel={onClose} />
      </form>
    </SidePanel>
  );
}
