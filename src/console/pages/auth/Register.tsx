import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from "../../../shared/constants";
import { api, query } from "../../api";
import { AuthCard } from "../../components/auth/AuthCard";
import { EmailCodeFields } from "../../components/auth/EmailCodeFields";
import { ThirdPartyButtons } from "../../components/auth/ThirdPartyButtons";
import { useHumanCheck } from "../../components/auth/use-human-check";
import { TextField } from "../../components/form/TextField";
import { inviteCode, rememberInviteCode } from "../../state/invite";
import { platform } from "../../state/status";
import { toast } from "../../state/toasts";
import { SubmitButton } from "../../components/form/FormButtons";

export function Register() {
  useSignals();
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const aff = new URLSearchParams(useSearch()).get("aff");
  useEffect(() => {
    if (aff) rememberInviteCode(aff);
  }, [aff]);
  const human = useHumanCheck();
  const verifyEmail = platform.value?.email_verification ?? false;
  const [form, setForm] = useState({ username: "", password: "", password2: "", email: "", verification_code: "" });
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.username.trim() || !form.password) return toast.error(t`Please enter your username and password`);
    if (form.password.length < PASSWORD_MIN)
      return toast.error(t`The password must be at least ${PASSWORD_MIN} characters`);
    if (form.password !== form.password2) return toast.error(t`The two passwords do not match`);
    if (verifyEmail && (!form.email.trim() || !form.verification_code))
      return toast.error(t`Please enter your email and the verification code`);
    if (!human.passed()) return;
    setBusy(true);
    const reply = await api.post(`/api/user/register${query({ turnstile: human.token })}`, {
      ...form,
      username: form.username.trim(),
      aff_code: inviteCode(),
    });
    setBusy(false);
    if (!reply.ok) return;
    toast.success(t`Registered, please sign in`);
    navigate("/login");
  };

  return (
    <AuthCard title={<Trans>Sign up</Trans>}>
      {platform.value?.register_enabled === false && (
        <div role="alert" className="alert alert-warning">
          <Trans>The administrator has turned off new registrations.</Trans>
        </div>
      )}
      <form onSubmit={submit} className="flex flex-col gap-1" data-testid="register-form">
        <TextField
          label={t`Username`}
          name="username"
          value={form.username}
          onChange={set("username")}
          hint={t`At most ${USERNAME_MAX} characters`}
          autoComplete="username"
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
        <TextField
          label={t`Confirm password`}
          name="password2"
          type="password"
          value={form.password2}
          onChange={set("password2")}
          autoComplete="new-password"
        />
        {verifyEmail && (
          <EmailCodeFields
            email={form.email}
            code={form.verification_code}
            onEmail={set("email")}
            onCode={set("verification_code")}
            turnstile={() => human.passed() && human.token}
          />
        )}
        {human.widget}
        <SubmitButton disabled={busy}>
          <Trans>Sign up</Trans>
        </SubmitButton>
      </form>
      <div className="text-sm mt-2">
        <Link href="/login" className="link">
          <Trans>Already have an account? Sign in</Trans>
        </Link>
      </div>
      <ThirdPartyButtons human={human} />
    </AuthCard>
  );
}
