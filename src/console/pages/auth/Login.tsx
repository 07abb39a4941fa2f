import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { api, query } from "../../api";
import { AuthCard } from "../../components/auth/AuthCard";
import { ThirdPartyButtons } from "../../components/auth/ThirdPartyButtons";
import { useHumanCheck } from "../../components/auth/use-human-check";
import { TextField } from "../../components/form/TextField";
import { toast } from "../../state/toasts";
import { currentUser, type LocalUser } from "../../state/user";
import { SubmitButton } from "../../components/form/FormButtons";

/** The login reply: the user record, or a ticket for the two-factor step. */
type SignInReply = (LocalUser & { require_2fa_setup?: boolean }) | { require_2fa: true; ticket: string };

const isFactoryDefault = (username: string, password: string) => username === "root" && password === "123456";

export function Login() {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const expired = new URLSearchParams(useSearch()).has("expired");
  const human = useHumanCheck();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [ticket, setTicket] = useState("");
  const [code, setCode] = useState("");

  const signedIn = (user: LocalUser & { require_2fa_setup?: boolean }) => {
    const { require_2fa_setup, ...record } = user;
    currentUser.value = record;
    toast.success(t`Signed in`);
    if (!require_2fa_setup) return navigate("/token");
    toast.info(t`Administrators of this site must turn on two-factor sign-in first`);
    navigate("/setting?tab=personal");
  };

  const secondStep = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return toast.error(t`Please enter the code of your authenticator app`);
    setBusy(true);
    const reply = await api.post<LocalUser>("/api/user/login/2fa", { ticket, code: code.trim() });
    setBusy(false);
    if (reply.ok) signedIn(reply.data);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) return toast.error(t`Please enter your username and password`);
    if (!human.passed()) return;
    setBusy(true);
    const reply = await api.post<SignInReply>(`/api/user/login${query({ turnstile: human.token })}`, {
      username: username.trim(),
      password,
    });
    setBusy(false);
    if (!reply.ok) return;
    if ("require_2fa" in reply.data) return setTicket(reply.data.ticket);
    signedIn(reply.data);
  };

  if (ticket) {
    return (
      <AuthCard title={<Trans>Two-factor sign-in</Trans>}>
        <form onSubmit={secondStep} className="flex flex-col gap-1" data-testid="two-factor-form">
          <TextField
            label={t`Code of your authenticator app, or a recovery code`}
            name="two_factor_code"
            value={code}
            onChange={setCode}
            autoComplete="one-time-code"
          />
          <SubmitButton disabled={busy}>
            <Trans>Sign in</Trans>
          </SubmitButton>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={<Trans>Sign in</Trans>}>
      {expired && (
        <div role="alert" className="alert alert-error" data-testid="expired">
          <Trans>not logged in or session expired</Trans>
        </div>
      )}
      <form onSubmit={submit} className="flex flex-col gap-1" data-testid="login-form">
        <TextField
          label={t`Username or email`}
          name="username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
        />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        {isFactoryDefault(username, password) && (
          <div role="alert" className="alert alert-warning" data-testid="default-password-warning">
            <Trans>
              You are using the factory default password of the super administrator; change it right after signing in.
            </Trans>
          </div>
        )}
        {human.widget}
        <SubmitButton disabled={busy}>
          <Trans>Sign in</Trans>
        </SubmitButton>
      </form>
      <div className="flex justify-between text-sm mt-2">
        <Link href="/register" className="link">
          <Trans>No account? Sign up</Trans>
        </Link>
        <Link href="/reset" className="link">
          <Trans>Forgot password?</Trans>
        </Link>
      </div>
      <ThirdPartyButtons human={human} />
    </AuthCard>
  );
}
