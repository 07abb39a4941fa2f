import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { platform } from "../../state/status";
import { toast } from "../../state/toasts";
import { loadTurnstile } from "./turnstile-script";

interface HumanCheck {
  /** The widget to place in the form; nothing when the check is off. */
  widget: ReactNode;
  /** The token as the `turnstile` query parameter value ("" when the check is off). */
  token: string;
  /** False, with the spec's notice, while the check is on and has not answered yet. */
  passed(): boolean;
}

/** The Turnstile human check of sign-in, registration, code and reset requests, when turnstile_check is on. */
export function useHumanCheck(): HumanCheck {
  useSignals();
  const { t } = useLingui();
  const status = platform.value;
  const enabled = Boolean(status?.turnstile_check && status.turnstile_site_key);
  const siteKey = status?.turnstile_site_key ?? "";
  const [token, setToken] = useState("");
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!enabled || !box.current) return;
    let widgetId: string | undefined;
    let api: Awaited<ReturnType<typeof loadTurnstile>> | undefined;
    loadTurnstile()
      .then((loaded) => {
        api = loaded;
        if (box.current)
          widgetId = loaded.render(box.current, {
            sitekey: siteKey,
            callback: setToken,
            "expired-callback": () => setToken(""),
          });
      })
      .catch(() => undefined);
    return () => {
      if (api && widgetId) api.remove(widgetId);
    };
  }, [enabled, siteKey]);
  return {
    widget: enabled ? <div ref={box} data-testid="turnstile" className="my-2 min-h-16" /> : null,
    token,
    passed() {
      if (!enabled || token) return true;
      toast.info(t`please retry in a few seconds, Turnstile is checking the user environment`);
      return false;
    },
  };
}
