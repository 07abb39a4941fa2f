import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { useLocation } from "wouter";
import { api, query } from "../../api";
import { platform } from "../../state/status";
import { currentUser, type LocalUser } from "../../state/user";
import { inviteCode } from "../../state/invite";
import { openOAuth } from "./oauth";
import { TelegramWidget } from "./TelegramWidget";
import { WeChatDialog } from "./WeChatDialog";

/** The page's human check, which WeChat sign-in passes like the page's own form does. */
interface PageHumanCheck {
  token: string;
  passed(): boolean;
}

/** GitHub, LinuxDO, WeChat and Telegram sign-in, each only when the platform enables it. */
export function ThirdPartyButtons({ human }: { human: PageHumanCheck }) {
  useSignals();
  const [, navigate] = useLocation();
  const [wechatOpen, setWechatOpen] = useState(false);
  const status = platform.value;
  if (
    !status ||
    !(
      status.github_oauth ||
      status.linuxdo_oauth ||
      status.oidc_enabled ||
      status.wechat_login ||
      status.telegram_oauth
    )
  )
    return null;
  const wechatLogin = async (code: string) => {
    if (!human.passed()) return;
    const reply = await api.get<LocalUser>(
      `/api/oauth/wechat${query({ code, aff: inviteCode(), turnstile: human.token })}`,
    );
    if (!reply.ok) return;
    currentUser.value = reply.data;
    setWechatOpen(false);
    navigate("/");
  };
  return (
    <div data-testid="third-party">
      <div className="divider text-sm">
        <Trans>or</Trans>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        {status.github_oauth && (
          <button type="button" className="btn btn-sm" onClick={() => openOAuth("github")}>
            GitHub
          </button>
        )}
        {status.linuxdo_oauth && (
          <button type="button" className="btn btn-sm" onClick={() => openOAuth("linuxdo")}>
            LinuxDO
          </button>
        )}
        {status.oidc_enabled && (
          <button type="button" className="btn btn-sm" onClick={() => openOAuth("oidc")}>
            OpenID
          </button>
        )}
        {status.wechat_login && (
          <button type="button" className="btn btn-sm" onClick={() => setWechatOpen(true)}>
            <Trans>WeChat</Trans>
          </button>
        )}
        {status.telegram_oauth && status.telegram_bot_name && <TelegramWidget botName={status.telegram_bot_name} />}
      </div>
      {wechatOpen && (
        <WeChatDialog qrcode={status.wechat_qrcode} onCode={wechatLogin} onClose={() => setWechatOpen(false)} />
      )}
    </div>
  );
}
