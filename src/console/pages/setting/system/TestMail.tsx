import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api } from "../../../api";
import { TextField } from "../../../components/form/TextField";
import { toast } from "../../../state/toasts";

/** Sends a test mail with the saved SMTP settings (to the given address, else root's own). */
export function TestMail() {
  const { t } = useLingui();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    const reply = await api.post("/api/option/test_mail", { email: email.trim() });
    setBusy(false);
    if (reply.ok) toast.success(reply.message);
  };
  return (
    <section className="card bg-base-100 shadow" data-testid="card-test-mail">
      <div className="card-body gap-2">
        <h2 className="card-title text-base">
          <Trans>Send a test mail</Trans>
        </h2>
        <TextField
          label={t`Recipient`}
          name="test_mail_to"
          type="email"
          value={email}
          onChange={setEmail}
          hint={t`Uses the saved SMTP settings; empty: your own email`}
        />
        <div>
          <button type="button" className="btn btn-sm" disabled={busy} onClick={send}>
            <Trans>Send test mail</Trans>
          </button>
        </div>
      </div>
    </section>
  );
}
