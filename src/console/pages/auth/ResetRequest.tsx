import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { api, query } from "../../api";
import { AuthCard } from "../../components/auth/AuthCard";
import { useHumanCheck } from "../../components/auth/use-human-check";
import { TextField } from "../../components/form/TextField";
import { useCountdown } from "../../components/form/use-countdown";
import { toast } from "../../state/toasts";
import { SubmitButton } from "../../components/form/FormButtons";

/** Asks for a password-reset mail; the button waits 30 seconds between sends. */
export function ResetRequest() {
  const { t } = useLingui();
  const human = useHumanCheck();
  const wait = useCountdown(30);
  const [email, setEmail] = useState("");

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return toast.error(t`Please enter your email`);
    if (!human.passed()) return;
    wait.start();
    const reply = await api.get(`/api/reset_password${query({ email: email.trim(), turnstile: human.token })}`);
    if (reply.ok) toast.success(t`The reset mail is sent, check your inbox`);
  };

  return (
    <AuthCard title={<Trans>Reset password</Trans>}>
      <form onSubmit={submit} className="flex flex-col gap-1" data-testid="reset-form">
        <TextField label={t`Email`} name="email" type="email" value={email} onChange={setEmail} />
        {human.widget}
        <SubmitButton disabled={wait.running}>
          {wait.running ? t`Resend (${wait.left})` : t`Send reset mail`}
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
