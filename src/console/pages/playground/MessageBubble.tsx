import { Trans } from "@lingui/react/macro";
import type { ChatMessage } from "./use-chat";

/** One message: the user's on the right, the reply on the left with its state (spec §4); an error says why. */
export function MessageBubble({ message }: { message: ChatMessage }) {
  const mine = message.role === "user";
  const failed = message.status === "error";
  const error = failed && (
    <span data-testid="message-error">
      <Trans>Error: {message.error}</Trans>
    </span>
  );
  return (
    <div
      className={`chat ${mine ? "chat-end" : "chat-start"}`}
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
    >
      <div className="chat-header text-xs opacity-70">{mine ? <Trans>You</Trans> : <Trans>Assistant</Trans>}</div>
      <div
        className={`chat-bubble whitespace-pre-wrap break-words ${mine ? "chat-bubble-primary" : ""} ${failed ? "chat-bubble-error" : ""}`}
      >
        {message.content || error}
        {message.status === "loading" && (
          <span className="loading loading-dots loading-sm" role="status" aria-label="loading" />
        )}
        {message.status === "incomplete" && <span className="animate-pulse">▍</span>}
      </div>
      {message.content && error && <div className="chat-footer text-error text-xs mt-1">{error}</div>}
    </div>
  );
}
