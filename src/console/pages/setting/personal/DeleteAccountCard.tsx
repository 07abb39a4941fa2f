import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useLocation } from "wouter";
import { api } from "../../../api";
import { Modal } from "../../../components/Modal";
import { TextField } from "../../../components/form/TextField";
import { toast } from "../../../state/toasts";
import { forgetUser } from "../../../state/user";
import { SettingCard } from "./SettingCard";

/** Deleting one's account needs the username typed; then local data goes and the sign-in screen shows. */
export function DeleteAccountCard({ username }: { username: string }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = async () => {
    if (typed !== username) return toast.error(t`Type your username to confirm`);
    const reply = await api.delete("/api/user/self");
    if (!reply.ok) return;
    forgetUser();
    toast.success(t`Account deleted`);
    navigate("/login");
  };
  return (
    <SettingCard title={<Trans>Delete account</Trans>} testId="delete-account">
      <div>
        <button
          type="button"
          className="btn btn-sm btn-error"
          data-testid="delete-account-open"
          onClick={() => setOpen(true)}
        >
          <Trans>Delete my account</Trans>
        </button>
      </div>
      {open && (
        <Modal
          title={<Trans>Delete account</Trans>}
          onClose={() => setOpen(false)}
          actions={
            <button type="button" className="btn btn-error" data-testid="delete-account-confirm" onClick={remove}>
              <Trans>Delete</Trans>
            </button>
          }
        >
          <p className="text-sm">
            <Trans>This cannot be undone. Type your username ({username}) to confirm.</Trans>
          </p>
          <TextField label={t`Username`} name="confirm_username" value={typed} onChange={setTyped} />
        </Modal>
      )}
    </SettingCard>
  );
}
