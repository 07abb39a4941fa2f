import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState, type FormEvent } from "react";
import { Redirect, useLocation } from "wouter";
import { PASSWORD_MIN } from "../../../shared/constants";
import { api } from "../../api";
import { AuthCard } from "../../components/auth/AuthCard";
import { TextField } from "../../components/form/TextField";
import { loadPlatformStatus, platform } from "../../state/status";
import { toast } from "../../state/toasts";
import { SubmitButton } from "../../components/form/FormButtons";

/** First run: creates the super administrator (status.setup is false until then). */
export function Setup() {
  useSignals();
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const [username, setUsername] = useState("root");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirm] = useState("");
  if (platform.value?.setup) return <Redirect to="/" replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) return toast.error(t`Please enter your username and password`);
    if (password.length < PASSWORD_MIN) return toast.error(t`The password must be at least ${PASSWORD_MIN} characters`);
    if (password !== confirmPassword) return toast.error(t`The two passwords do not match`);
    const reply = await api.post("/api/setup", { username: username.trim(), password, confirmPassword });
    if (!reply.ok) return;
    toast.success(t`The system is initialized, please sign in`);
    await loadPlatformStatus();
    navigate("/login");
  };

  return (
    <AuthCard title={<Trans>Initialize the system</Trans>}>
      <p className="text-sm">
        <Trans>Create the super administrator account to finish the first start.</Trans>
      </p>
      <form onSubmit={submit} className="flex flex-col gap-1" data-testid="setup-form">
        <TextField label={t`Administrator username`} name="username" value={username} onChange={setUsername} />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="new-password"
        />
        <TextField
          label={t`Confirm password`}
          name="confirmPassword"
          type="password"
          value={confirmPassword}
          onChange={setConfirm}
          autoComplete="new-password"
        />
        <SubmitButton>
          <Trans>Initialize</Trans>
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
