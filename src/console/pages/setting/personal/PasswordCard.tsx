import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../../../shared/constants";
import { api } from "../../../api";
import { TextField } from "../../../components/form/TextField";
import { toast } from "../../../state/toasts";
import { forgetUser } from "../../../state/user";
import { SettingCard } from "./SettingCard";

/** Changing the password signs the user out everywhere, so the console goes to the sign-in screen. */
export function PasswordCard() {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const [form, setForm] = useState({ original: "", password: "", confirm: "" });
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.original || !form.password) return toast.error(t`Check the input`);
    if (form.password !== form.confirm) return toast.error(t`The two passwords do not match`);
    const reply = await api.put("/api/user/self", { original_password: form.original, password: form.password });
    if (!reply.ok) return;
    toast.success(t`Password changed, please sign in again`);
    forgetUser();
    navigate("/login");
  };
  return (
    <SettingCard title={<Trans>Change password</Trans>} testId="change-password">
      <form onSubmit={submit} className="grid grid-cols-1 tablet:grid-cols-3 gap-x-4" data-testid="password-form">
        <TextField
          label={t`Current password`}
          name="original_password"
          type="password"
          value={form.original}
          onChange={set("original")}
          autoComplete="current-password"
        />
        <TextField
          label={t`New password`}
          name="new_password"
          type="password"
          value={form.password}
          onChange={set("password")}
          hint={t`${PASSWORD_MIN} to ${PASSWORD_MAX} characters`}
          autoComplete="new-password"
        />
        <TextField
          label={t`Confirm password`}
          name="confirm_password"
          type="password"
          value={form.confirm}
          onChange={set("confirm")}
          autoComplete="new-password"
        />
        <div className="tablet:col-span-3">
          <button type="submit" className="btn btn-sm btn-primary">
            <Trans>Change password</Trans>
          </button>
        </div>
      </form>
    </SettingCard>
  );
}
