import { Trans, useLingui } from "@lingui/react/macro";
import { type ReactNode, useState } from "react";
import { api } from "../../../api";
import { TextField } from "../../../components/form/TextField";
import { toast } from "../../../state/toasts";
import { useApiData } from "../../../use-api-data";
import { SettingCard } from "./SettingCard";

interface TwoFactorStatus {
  enabled: boolean;
  recovery_codes_left: number;
  required: boolean;
}

/** Two-factor sign-in: set up with an authenticator app (turned on by one of its codes), removed with a current code. */
export function TwoFactorCard() {
  const { t } = useLingui();
  const status = useApiData<TwoFactorStatus>("/api/user/2fa/status");
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [recovery, setRecovery] = useState<string[]>([]);
  const [code, setCode] = useState("");

  const begin = async () => {
    const reply = await api.post<{ secret: string; uri: string }>("/api/user/2fa/setup");
    if (reply.ok) setSetup(reply.data);
  };
  const enable = async () => {
    const reply = await api.post<{ recovery_codes: string[] }>("/api/user/2fa/enable", { code: code.trim() });
    if (!reply.ok) return;
    toast.success(t`Two-factor sign-in is on`);
    setRecovery(reply.data.recovery_codes);
    setSetup(null);
    setCode("");
    status.reload();
  };
  const disable = async () => {
    const reply = await api.post("/api/user/2fa/disable", { code: code.trim() });
    if (!reply.ok) return;
    toast.success(t`Two-factor sign-in is off`);
    setCode("");
    setRecovery([]);
    status.reload();
  };

  /** The app's code and the button that sends it. */
  const withCode = (action: ReactNode, onClick: () => void, kind: string) => (
    <>
      <TextField
        label={t`Code of your authenticator app`}
        name="two_factor_code"
        value={code}
        onChange={setCode}
        autoComplete="one-time-code"
      />
      <div>
        <button type="button" className={`btn btn-sm ${kind}`} onClick={onClick}>
          {action}
        </button>
      </div>
    </>
  );
  const state = status.data;
  return (
    <SettingCard title={<Trans>Two-factor sign-in</Trans>} testId="two-factor">
      {state?.required && (
        <div role="alert" className="alert alert-warning">
          <Trans>Administrators of this site must turn on two-factor sign-in first</Trans>
        </div>
      )}
      {recovery.length > 0 && (
        <div className="alert alert-info flex-col items-start" data-testid="recovery-codes">
          <Trans>
            Keep these recovery codes somewhere safe; each one signs you in once when the app is not at hand:
          </Trans>
          <code className="whitespace-pre">{recovery.join("\n")}</code>
        </div>
      )}
      {state?.enabled ? (
        <>
          <p className="text-sm">
            <Trans>Two-factor sign-in is on. Recovery codes left: {state.recovery_codes_left}</Trans>
          </p>
          {withCode(<Trans>Turn off two-factor sign-in</Trans>, disable, "btn-error")}
        </>
      ) : setup ? (
        <>
          <p className="text-sm">
            <Trans>
              Add this key to your authenticator app (or open the address on your phone), then enter its code:
            </Trans>
          </p>
          <code className="break-all" data-testid="two-factor-secret">
            {setup.secret}
          </code>
          <a className="link text-xs break-all" href={setup.uri}>
            {setup.uri}
          </a>
          {withCode(<Trans>Turn on two-factor sign-in</Trans>, enable, "btn-primary")}
        </>
      ) : (
        <div>
          <button type="button" className="btn btn-sm" onClick={begin}>
            <Trans>Set up two-factor sign-in</Trans>
          </button>
        </div>
      )}
    </SettingCard>
  );
}
