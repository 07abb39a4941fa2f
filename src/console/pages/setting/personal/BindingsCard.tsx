import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { api, query } from "../../../api";
import { openOAuth, telegramUnavailable } from "../../../components/auth/oauth";
import { WeChatDialog } from "../../../components/auth/WeChatDialog";
import { platform } from "../../../state/status";
import { toast } from "../../../state/toasts";
import { EmailBindDialog } from "./EmailBindDialog";
import type { SelfUser } from "./self-user";
import { SettingCard } from "./SettingCard";

type Dialog = "email" | "wechat" | null;

/** Email, WeChat, GitHub and Telegram bindings: the bound value, or a way to bind. */
export function BindingsCard({ user, onChanged }: { user: SelfUser; onChanged: () => void }) {
  useSignals();
  const { t } = useLingui();
  const [dialog, setDialog] = useState<Dialog>(null);
  const status = platform.value;
  const done = () => {
    setDialog(null);
    onChanged();
  };
  const bindWeChat = async (code: string) => {
    const reply = await api.get(`/api/oauth/wechat/bind${query({ code })}`);
    if (!reply.ok) return;
    toast.success(t`Bound`);
    done();
  };
  const rows = [
    { id: "email", name: t`Email`, value: user.email, bind: () => setDialog("email") },
    { id: "wechat", name: t`WeChat`, value: user.wechat_id, bind: () => setDialog("wechat") },
    {
      id: "github",
      name: "GitHub",
      value: user.github_id,
      bind: () => openOAuth("github", status?.github_client_id ?? ""),
    },
    { id: "telegram", name: "Telegram", value: user.telegram_id, bind: telegramUnavailable },
  ];
  return (
    <SettingCard title={<Trans>Account bindings</Trans>} testId="bindings">
      <div className="grid grid-cols-1 tablet:grid-cols-2 gap-2">
        {rows.map((row) => (
          <div
            key={row.id}
            className="flex items-center justify-between bg-base-200 rounded-box px-3 py-2"
            data-binding={row.id}
          >
            <div>
              <div className="font-medium">{row.name}</div>
              <div className="text-sm opacity-70">{row.value || t`not bound`}</div>
            </div>
            <button type="button" className="btn btn-sm" onClick={row.bind}>
              {row.value ? t`Change` : t`Bind`}
            </button>
          </div>
        ))}
      </div>
      {dialog === "email" && <EmailBindDialog onBound={done} onClose={() => setDialog(null)} />}
      {dialog === "wechat" && (
        <WeChatDialog qrcode={status?.wechat_qrcode ?? ""} onCode={bindWeChat} onClose={() => setDialog(null)} />
      )}
    </SettingCard>
  );
}
