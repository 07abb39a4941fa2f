import { useLingui } from "@lingui/react/macro";
import type { ChannelView } from "../../../shared/channel-types";
import { api } from "../../api";
import { formatUsd } from "../../../shared/quota-format";
import { showQuota } from "../../state/status";
import { toast } from "../../state/toasts";

/** Used quota and the upstream balance (USD); clicking the balance asks the upstream again. */
export function BalanceCell({
  channel,
  onChanged,
}: {
  channel: ChannelView;
  onChanged: (channel: ChannelView) => void;
}) {
  const { t } = useLingui();
  const update = async () => {
    const reply = await api.get<ChannelView>(`/api/channel/update_balance/${channel.id}`);
    if (!reply.ok) return;
    toast.success(t`Balance updated: ${formatUsd(reply.data.balance)}`);
    onChanged(reply.data);
  };
  return (
    <div className="flex flex-col items-start gap-1">
      <span className="badge badge-sm badge-outline" title={t`Used`}>
        {showQuota(channel.used_quota)}
      </span>
      <button
        type="button"
        className="badge badge-sm badge-ghost cursor-pointer hover:badge-primary"
        data-action="balance"
        title={t`Remaining balance; click to update`}
        onClick={update}
      >
        {formatUsd(channel.balance)}
      </button>
    </div>
  );
}
