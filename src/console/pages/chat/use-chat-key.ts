import { useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import { api } from "../../api";
import { toast } from "../../state/toasts";

interface TokenItem {
  id: number;
  status: number;
}

/** How long the 'no enabled token' notice shows before /token (spec §8). */
export const TOKEN_REDIRECT_MS = 1500;

/**
 * The whole key of the signed-in person's first enabled token: the token list (size 100), then
 * POST /api/token/{id}/key. Without an enabled token: an error, then /token after 1.5 s.
 */
export function useChatKey(wanted: boolean): string | undefined {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const [key, setKey] = useState<string>();
  useEffect(() => {
    if (!wanted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const list = await api.get<{ items: TokenItem[] }>("/api/token/?p=1&size=100");
      if (!list.ok) return;
      const token = (list.data.items ?? []).find((item) => item.status === 1);
      if (!token) {
        toast.error(t`No enabled token, check that a token is enabled`);
        timer = setTimeout(() => navigate("/token"), TOKEN_REDIRECT_MS);
        return;
      }
      const reply = await api.post<{ key: string }>(`/api/token/${token.id}/key`);
      if (reply.ok) setKey(reply.data.key);
    })();
    return () => clearTimeout(timer);
  }, [wanted]);
  return key;
}
