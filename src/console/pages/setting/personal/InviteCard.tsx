import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { api } from "../../../api";
import { Modal } from "../../../components/Modal";
import { TextField } from "../../../components/form/TextField";
import { copyText } from "../../../state/clipboard";
import { platform, showQuota } from "../../../state/status";
import { toast } from "../../../state/toasts";
import { useApiData } from "../../../use-api-data";
import type { SelfUser } from "./self-user";
import { SettingCard } from "./SettingCard";

function TransferDialog({ user, onDone, onClose }: { user: SelfUser; onDone: () => void; onClose: () => void }) {
  const { t } = useLingui();
  const unit = platform.value?.quota_per_unit || 500000;
  const [amount, setAmount] = useState(String(user.aff_quota));
  const transfer = async () => {
    const quota = Number(amount);
    if (!Number.isInteger(quota) || quota < unit) return toast.error(t`The smallest transfer is ${showQuota(unit)}`);
    const reply = await api.post("/api/user/aff_transfer", { quota });
    if (!reply.ok) return;
    toast.success(t`Transferred to the balance`);
    onDone();
  };
  return (
    <Modal
      title={<Trans>Transfer invite earnings to the balance</Trans>}
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={transfer}>
          <Trans>Transfer</Trans>
        </button>
      }
    >
      <TextField
        label={t`Quota to transfer`}
        name="aff-transfer"
        type="number"
        value={amount}
        onChange={setAmount}
        hint={t`Available ${showQuota(user.aff_quota)}; at least ${showQuota(unit)}`}
      />
    </Modal>
  );
}

/** The invite link (GET /api/user/aff) and the earnings it brought. */
export function InviteCard({ user, onChanged }: { user: SelfUser; onChanged: () => void }) {
  const { t } = useLingui();
  const code = useApiData<string>("/api/user/aff");
  const [transferring, setTransferring] = useState(false);
  const link = code.data ? `${location.origin}/register?aff=${code.data}` : "";
  return (
    <SettingCard title={<Trans>Invite</Trans>} testId="invite">
      <div className="flex flex-wrap gap-4 text-sm">
        <span>
          <Trans>Invited users: {user.aff_count}</Trans>
        </span>
        <span>
          <Trans>Pending earnings: {showQuota(user.aff_quota)}</Trans>
        </span>
        <span>
          <Trans>Total earnings: {showQuota(user.aff_history_quota)}</Trans>
        </span>
      </div>
      <div className="join w-full">
        <input
          className="input join-item flex-1"
          readOnly
          value={link}
          data-testid="invite-link"
          aria-label={t`Invite link`}
        />
        <button
          type="button"
          className="btn join-item"
          disabled={!link}
          onClick={() => copyText(link, t`Invite link copied`)}
        >
          <Trans>Copy</Trans>
        </button>
      </div>
      <div>
        <button
          type="button"
          className="btn btn-sm"
          disabled={user.aff_quota <= 0}
          onClick={() => setTransferring(true)}
        >
          <Trans>Transfer to balance</Trans>
        </button>
      </div>
      {transferring && (
        <TransferDialog
          user={user}
          onClose={() => setTransferring(false)}
          onDone={() => {
            setTransferring(false);
            onChanged();
          }}
        />
      )}
    </SettingCard>
  );
}
