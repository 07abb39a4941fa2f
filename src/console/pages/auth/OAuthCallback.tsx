import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useParams, useSearch } from "wouter";
import { api, query } from "../../api";
import { AuthCard } from "../../components/auth/AuthCard";
import { i18n } from "../../i18n";
import { inviteCode } from "../../state/invite";
import { toast } from "../../state/toasts";
import { currentUser, type LocalUser } from "../../state/user";

/** The server call a provider's return address stands for. */
function callOf(provider: string, mode: string, search: URLSearchParams): string {
  if (provider !== "telegram")
    return `/api/oauth/${provider}${query({ code: search.get("code") ?? "", state: search.get("state") ?? "" })}`;
  const fields = Object.fromEntries(search);
  if (mode === "bind") return `/api/oauth/telegram/bind${query(fields)}`;
  return `/api/oauth/telegram/login${query({ ...fields, lang: i18n.locale, aff: inviteCode() })}`;
}

/**
 * /oauth/github, /oauth/linuxdo, /oauth/oidc, /oauth/telegram(/bind): where a provider sends the browser back. The
 * server signs in (then /token; / after Telegram) or binds (then personal settings); a refusal is shown here.
 */
export function OAuthCallback() {
  const { t } = useLingui();
  const { provider = "", mode = "" } = useParams<{ provider: string; mode?: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const [refusal, setRefusal] = useState("");
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    (async () => {
      const reply = await api.get<LocalUser | null>(callOf(provider, mode, new URLSearchParams(search)));
      if (!reply.ok) return setRefusal(reply.message);
      if (reply.data) {
        currentUser.value = reply.data;
        toast.success(t`Signed in`);
        navigate(provider === "telegram" ? "/" : "/token", { replace: true });
      } else {
        toast.success(t`Bound`);
        navigate("/setting?tab=personal", { replace: true });
      }
    })();
  }, [provider, mode, search, navigate, t]);

  return (
    <AuthCard title={<Trans>Signing in</Trans>}>
      <div data-testid="oauth-callback">
        {refusal ? (
          <>
            <div role="alert" className="alert alert-error" data-testid="oauth-refusal">
              {refusal}
            </div>
            <Link href="/login" className="link mt-2 block">
              <Trans>Back to sign in</Trans>
            </Link>
          </>
        ) : (
          <span className="loading loading-spinner" />
        )}
      </div>
    </AuthCard>
  );
}
