import { Trans, useLingui } from "@lingui/react/macro";
import { api, query } from "../../api";
import { toast } from "../../state/toasts";
import { TextField } from "../form/TextField";
import { useCountdown } from "../form/use-countdown";

interface EmailCodeFieldsProps {
  email: string;
  code: string;
  onEmail: (email: string) => void;
  onCode: (code: string) => void;
  /** The human check's token, or false to stop (the check shows its own notice). */
  turnstile: () => string | false;
}

/** Email plus verification code, with 'get code' locked for 30 seconds after each send. */
export function EmailCodeFields({ email, code, onEmail, onCode, turnstile }: EmailCodeFieldsProps) {
  const { t } = useLingui();
  const wait = useCountdown(30);
  const send = async () => {
    if (!email.trim()) return toast.error(t`Please enter your email`);
    const token = turnstile();
    if (token === false) return;
    wait.start();
    const reply = await api.get(`/api/verification${query({ email: email.trim(), turnstile: token })}`);
    if (reply.ok) toast.success(t`Verification code sent, check your inbox`);
  };
  const button = (
    <button type="button" className="btn join-item" data-testid="get-code" disabled={wait.running} onClick={send}>
      {wait.running ? t`Resend (${wait.left})` : t`Get code`}
    </button>
  );
  return (
    <>
      <TextField
        label={<Trans>Email</Trans>}
        name="email"
        type="email"
        value={email}
        onChange={onEmail}
        addon={button}
      />
      <TextField label={<Trans>Verification code</Trans>} name="verification_code" value={code} onChange={onCode} />
    </>
  );
}
