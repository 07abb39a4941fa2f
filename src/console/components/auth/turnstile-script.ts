interface TurnstileApi {
  render(
    element: HTMLElement,
    options: { sitekey: string; callback: (token: string) => void; "expired-callback"?: () => void },
  ): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | undefined;

/** Cloudflare's widget script, loaded once and only where a human check is on. */
export function loadTurnstile(): Promise<TurnstileApi> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
    script.async = true;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("turnstile missing")));
    script.onerror = () => {
      loading = undefined;
      reject(new Error("turnstile script failed to load"));
    };
    document.head.append(script);
  });
  return loading;
}
