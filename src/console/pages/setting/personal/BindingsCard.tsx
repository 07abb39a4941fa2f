import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { api, query } from "../../../api";
import { openOAuth } from "../../../components/auth/oauth";
import { TelegramWidget } from "../../../components/auth/TelegramWidget";
import { WeChatDialog } from "../../../components/auth/WeChatDialog";
import { platform } from "../../../state/status";
import { toast } from "../../../state/toasts";
import { EmailBindDialog } from "./EmailBindDialog";
import type { SelfUser } from "./self-user";
import { SettingCard } from "./SettingCard";

type Dialog = "email" | "wechat" | "telegram" | null;

interface BindingRow {
  id: string;
  name: string;
  value: string;
  bind: () => void;
  /** Offered only for an account bound elsewhere, by the server's provider name. */
  unbind?: string;
}

/**
 * Email, WeChat, GitHub and Telegram bindings (LinuxDO and OpenID Connect too while switched on or bound): the bound
 * value, a way to bind, and to unbind (the server keeps at least one way to sign in).
 */
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
  const unbind = async (provider: string) => {
    const reply = await api.delete(`/api/user/oauth/bindings/${provider}`);
    if (!reply.ok) return;
    toast.success(t`Unbound`);
    onChanged();
  };
  const rows: BindingRow[] = [
    { id: "email", name: t`Email`, value: user.email, bind: () => setDialog("email") },
    { id: "wechat", name: t`WeChat`, value: user.wechat_id, bind: () => setDialog("wechat"), unbind: "wechat" },
    { id: "github", name: "GitHub", value: user.github_id, bind: () => openOAuth("github"), unbind: "github" },
  ];
  if (status?.linuxdo_oauth || user.linux_do_id)
    rows.push({
      id: "linuxdo",
      name: "LinuxDO",
      value: user.linux_do_id,
      bind: () => openOAuth("linuxdo"),
      unbind: "linuxdo",
    });
  if (status?.oidc_enabled || user.oidc_id)
    rows.push({ id: "oidc", name: "OpenID", value: user.oidc_id, bind: () => openOAuth("oidc"), unbind: "oidc" });
  rows.push({
    id: "telegram",
    name: "Telegram",
    value: user.telegram_id,
    bind: () => setDialog("telegram"),
    unbind: "telegram",
  });
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
              <div className="text-sm opacity-70" data-testid={`binding-${row.id}`}>
                {row.value || t`not bound`}
              </div>
            </div>
            <div className="flex gap-1">
              {row.value && row.unbind && (
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => unbind(row.unbind!)}>
                  <Trans>Unbind</Trans>
                </button>
              )}
              <button type="button" className="btn btn-sm" onClick={row.bind}>
                {row.value ? t`Change` : t`Bind`}
              </button>
            </div>
          </div>
        ))}
      </div>
      {dialog === "telegram" &&
        (status?.telegram_oauth && status.telegram_bot_name ? (
          <TelegramWidget botName={status.telegram_bot_name} bind />
        ) : (
          <p className="text-sm mt-2">
            <Trans>Telegram sign-in is not enabled on this site</Trans>
          </p>
        ))}
      {dialog === "email" && <EmailBindDialog onBound={done} onClose={() => setDialog(null)} />}
      {dialog === "wechat" && (
        <WeChatDialog qrcode={status?.wechat_qrcode ?? ""} onCode={bindWeChat} onClose={() => setDialog(null)} />
      )}
    </SettingCard>
  );
}
