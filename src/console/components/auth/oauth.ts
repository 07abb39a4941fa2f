import { t } from "@lingui/core/macro";
import { api, query } from "../../api";
import { inviteCode } from "../../state/invite";
import { toast } from "../../state/toasts";

const AUTHORIZE = {
  github: (clientId: string, state: string) =>
    `https://github.com/login/oauth/authorize${query({ client_id: clientId, state, scope: "user:email" })}`,
  linuxdo: (clientId: string, state: string) =>
    `https://connect.linux.do/oauth2/authorize${query({ response_type: "code", client_id: clientId, state })}`,
};

/** Opens the provider's authorize page in a new window with a state from the server (aff rides along). */
export async function openOAuth(provider: keyof typeof AUTHORIZE, clientId: string): Promise<void> {
  const reply = await api.get<string>(`/api/oauth/state${query({ aff: inviteCode() })}`);
  if (!reply.ok) return;
  window.open(AUTHORIZE[provider](clientId, reply.data), "_blank", "noopener");
}

export const telegramUnavailable = () => toast.info(t`Telegram sign-in is not available yet`);
