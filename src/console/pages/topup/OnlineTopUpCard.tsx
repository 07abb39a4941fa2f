import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../state/toasts";
import { SettingCard } from "../setting/personal/SettingCard";
import { payOnline } from "./epay-form";
import { useTopUpPrice } from "./use-top-up-price";
import { minimumAmount, payMethodsOf, walletStatus, type PayMethod } from "./wallet-status";

/** Online top-up: an amount (at least min_topup), a payment method, a confirmation, then the Epay form. */
export function OnlineTopUpCard() {
  useSignals();
  const { t } = useLingui();
  const status = walletStatus();
  const minimum = minimumAmount(status);
  const methods = payMethodsOf(status.pay_methods);
  const [amount, setAmount] = useState(String(minimum));
  const [confirming, setConfirming] = useState<PayMethod | null>(null);
  const value = Number(amount);
  const valid = Number.isInteger(value) && value >= minimum;
  const money = useTopUpPrice(value, Boolean(status.enable_online_topup) && valid);

  const choose = (method: PayMethod) => {
    if (!status.enable_online_topup) return toast.error(t`The administrator has not enabled online top-up`);
    if (!valid) return toast.error(t`The top-up amount cannot be less than ${minimum}`);
    setConfirming(method);
  };
  const pay = async (method: PayMethod) => {
    setConfirming(null);
    await payOnline(value, method.type);
  };
  const unit = status.display_in_currency === false ? t`Amount (quota units)` : t`Amount (US dollars)`;
  return (
    <SettingCard title={<Trans>Online top-up</Trans>} testId="online-top-up">
      {!status.enable_online_topup && (
        <div role="alert" className="alert alert-info text-sm" data-testid="online-off">
          <Trans>The administrator has not enabled online top-up</Trans>
        </div>
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span className="opacity-70">{unit}</span>
        <input
          className="input w-full"
          type="number"
          name="amount"
          min={minimum}
          step={1}
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          onBlur={() => setAmount(String(Math.max(1, Math.floor(Number(amount)) || 1)))}
        />
      </label>
      <p className="text-sm opacity-80" data-testid="money">
        {money !== undefined ? <Trans>Amount to pay: ¥{money}</Trans> : <Trans>Minimum top-up: {minimum}</Trans>}
      </p>
      {methods ? (
        <div className="flex flex-wrap gap-2">
          {methods.map((method) => (
            <button
              key={method.type}
              type="button"
              className="btn text-white border-0"
              data-method={method.type}
              style={{ backgroundColor: method.color || undefined }}
              onClick={() => choose(method)}
            >
              {method.name}
            </button>
          ))}
        </div>
      ) : (
        <div role="alert" className="alert alert-error text-sm">
          <Trans>Payment method configuration error, contact the administrator</Trans>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={<Trans>Confirm the top-up</Trans>}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void pay(confirming)}
        >
          <div data-testid="pay-confirm">
            <Trans>
              Top up {amount} and pay ¥{money ?? "…"} with {confirming.name}?
            </Trans>
          </div>
        </ConfirmDialog>
      )}
    </SettingCard>
  );
}
