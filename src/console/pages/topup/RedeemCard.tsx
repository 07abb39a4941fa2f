import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import { api } from "../../api";
import { showQuota } from "../../state/status";
import { toast } from "../../state/toasts";
import { SettingCard } from "../setting/personal/SettingCard";
import { walletStatus } from "./wallet-status";

/** Redeems a code (POST /api/user/topup); the link to get codes opens the TopUpLink option. */
export function RedeemCard({ onRedeemed }: { onRedeemed: () => void }) {
  const { t } = useLingui();
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const redeem = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return toast.error(t`Please enter a redemption code`);
    setBusy(true);
    const reply = await api.post<number>("/api/user/topup", { key: code.trim() });
    setBusy(false);
    if (!reply.ok) return;
    toast.success(t`Redeemed: ${showQuota(reply.data)} added to your balance`);
    setCode("");
    onRedeemed();
  };
  const getCodes = () => {
    const link = walletStatus().top_up_link;
    if (!link) return toast.error(t`The super administrator has not set a top-up link`);
    window.open(link, "_blank", "noopener,noreferrer");
  };
  return (
    <SettingCard title={<Trans>Redeem a code</Trans>} testId="redeem">
      <form onSubmit={redeem} className="flex flex-wrap gap-2">
        <input
          className="input flex-1 min-w-48"
          name="redemption-code"
          placeholder={t`Redemption code`}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        <button type="submit" className="btn btn-primary" disabled={busy} data-testid="redeem-submit">
          {busy ? <span className="loading loading-spinner loading-sm" /> : <Trans>Redeem</Trans>}
        </button>
        <button type="button" className="btn" data-testid="get-codes" onClick={getCodes}>
          <Trans>Get a redemption code</Trans>
        </button>
      </form>
    </SettingCard>
  );
}
