import { useSignals } from "@preact/signals-react/runtime";
import { Redirect, useParams } from "wouter";
import { fillChatLink } from "../../chat-links";
import { currentUser } from "../../state/user";
import { chatPageTarget, isWebAddress } from "./chat-target";
import { ChatNotice } from "./ChatNotice";
import { useChatKey } from "./use-chat-key";

/** /chat/{id?}: the configured chat client in a frame, opened with the person's first enabled token. */
export default function ChatPage() {
  useSignals();
  const { id } = useParams<{ id?: string }>();
  const target = chatPageTarget(id);
  const key = useChatKey(Boolean(currentUser.value) && "template" in target);
  if (!currentUser.value) return <Redirect to="/login" replace />;
  const link = key && "template" in target ? fillChatLink(target.template, key) : undefined;
  if (!link) return <ChatNotice target={target} />;
  if (!isWebAddress(link)) return <ChatNotice target={{ problem: "config" }} />;
  return (
    <iframe
      src={link}
      title="chat"
      className="w-full h-[calc(100vh-9rem)] rounded-box bg-base-100"
      data-testid="chat-frame"
    />
  );
}
