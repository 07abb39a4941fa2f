import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useSearch } from "wouter";
import { api } from "../../api";
import { AuthCard } from "../../components/auth/AuthCard";
import { TextField } from "../../components/form/TextField";
import { copyText } from "../../state/clipboard";

/** The reset mail's link: email and token from the query; the server answers a new password. */
export function ResetConfirm() {
  const { t } = useLingui();
  const params = new URLSearchParams(useSearch());
  const email = params.get("email") ?? "";
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");

  const confirm = async () => {
    const reply = await api.post<string>("/api/user/reset", { email, token });
    if (!reply.ok) return;
    setPassword(reply.data);
    await copyText(reply.data, t`The new password is copied to the clipboard`);
  };

  return (
    <AuthCard title={<Trans>Confirm password reset</Trans>}>
      <TextField label={t`Email`} name="email" value={email} onChange={() => undefined} disabled />
      {password ? (
        <TextField
          label={t`New password`}
          name="new-password"
          value={password}
          onChange={() => undefined}
          addon={
            <button
              type="button"
              className="btn join-item"
              onClick={() => copyText(password, t`The new password is copied to the clipboard`)}
            >{t`Copy`}</button>
          }
        />
      ) : (
        <button type="button" className="btn btn-primary mt-3" disabled={!email || !token} onClick={confirm}>
          <Trans>Reset my password</Trans>
        </button>
      )}
    </AuthCard>
  );
}
