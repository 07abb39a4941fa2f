import { useEffect, useRef } from "react";

/**
 * Telegram's login widget for the bot: Telegram sends the browser back to /oauth/telegram (/oauth/telegram/bind when
 * binding) with the signed fields, where the callback screen hands them to the server.
 */
export function TelegramWidget({ botName, bind = false }: { botName: string; bind?: boolean }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const script = document.createElement("script");
    script.src = "https://telegram.org/js/telegram-widget.js?22";
    script.async = true;
    script.dataset.telegramLogin = botName;
    script.dataset.size = "medium";
    script.dataset.authUrl = `${window.location.origin}/oauth/telegram${bind ? "/bind" : ""}`;
    script.dataset.requestAccess = "write";
    const box = holder.current;
    box?.appendChild(script);
    return () => box?.replaceChildren();
  }, [botName, bind]);
  return <div ref={holder} data-testid="telegram-widget" />;
}
