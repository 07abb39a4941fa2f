import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { Redirect } from "wouter";
import { fillChatLink } from "../../chat-links";
import { currentUser } from "../../state/user";
import { chatRedirectTarget, isWebAddress } from "./chat-target";
import { ChatNotice } from "./ChatNotice";
import { useChatKey } from "./use-chat-key";

/** /chat2link: straight to the chat client (the ChatLink option) with the person's first enabled token. */
export default function Chat2Link() {
  useSignals();
  const target = chatRedirectTarget();
  const key = useChatKey(Boolean(currentUser.value) && "template" in target);
  const link = key && "template" in target ? fillChatLink(target.template, key) : undefined;
  const usable = link !== undefined && isWebAddress(link);
  useEffect(() => {
    if (usable) window.location.replace(link);
  }, [usable, link]);
  if (!currentUser.value) return <Redirect to="/login" replace />;
  return <ChatNotice target={link && !usable ? { problem: "config" } : target} />;
}
