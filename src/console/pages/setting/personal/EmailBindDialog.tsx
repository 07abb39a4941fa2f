import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api, query } from "../../../api";
import { EmailCodeFields } from "../../../components/auth/EmailCodeFields";
import { useHumanCheck } from "../../../components/auth/use-human-check";
import { Modal } from "../../../components/Modal";
import { toast } from "../../../state/toasts";

export function EmailBindDialog({ onBound, onClose }: { onBound: () => void; onClose: () => void }) {
  const { t } = useLingui();
  const human = useHumanCheck();
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const bind = async () => {
    if (!code) return toast.error(t`Please enter the verification code`);
    const reply = await api.get(`/api/oauth/email/bind${query({ email: email.trim(), code })}`);
    if (!reply.ok) return;
    toast.success(t`Bound`);
    onBound();
  };
  return (
    <Modal
      title={<Trans>Bind email</Trans>}
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={bind}>
          <Trans>Bind</Trans>
        </button>
      }
    >
      <EmailCodeFields
        email={email}
        code={code}
        onEmail={setEmail}
        onCode={setCode}
        turnstile={() => human.passed() && human.token}
      />
      {human.widget}
    </Modal>
  );
}
