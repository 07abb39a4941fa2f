import { api, query } from "../../api";
import { inviteCode } from "../../state/invite";

/** Providers whose sign-in page the server addresses (state, and for OpenID Connect PKCE and nonce, kept there). */
export type OAuthProvider = "github" | "linuxdo" | "oidc";

/** Opens the provider's authorize page in a new window; the server builds it with a fresh state (aff rides along). */
export async function openOAuth(provider: OAuthProvider): Promise<void> {
  const reply = await api.get<string>(`/api/oauth/${provider}/start${query({ aff: inviteCode() })}`);
  if (!reply.ok) return;
  window.open(reply.data, "_blank", "noopener");
}
