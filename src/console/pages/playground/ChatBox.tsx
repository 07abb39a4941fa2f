import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { MessageBubble } from "./MessageBubble";
import type { useChat } from "./use-chat";

/** The conversation and the question box: Enter sends, Shift+Enter starts a new line. */
export function ChatBox({ chat, disabled }: { chat: ReturnType<typeof useChat>; disabled: boolean }) {
  const { t } = useLingui();
  const [text, setText] = useState("");
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [chat.messages]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || chat.busy || disabled) return;
    chat.send(text.trim());
    setText("");
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) submit(e);
  };
  return (
    <section className="card bg-base-100 shadow flex-1 min-w-0" data-testid="chat-box">
      <div className="card-body p-4 gap-3">
        <div className="min-h-64 max-h-[60vh] overflow-y-auto" data-testid="messages">
          {chat.messages.length === 0 && (
            <p className="text-center opacity-60 py-16">
              <Trans>Ask something to start the conversation.</Trans>
            </p>
          )}
          {chat.messages.map((m) => (
            <MessageBubble key={m.id} message={m} />
          ))}
          <div ref={end} />
        </div>
        <form onSubmit={submit} className="flex gap-2 items-end max-tablet:flex-col max-tablet:items-stretch">
          <textarea
            className="textarea flex-1 w-full"
            name="question"
            rows={2}
            value={text}
            placeholder={t`Type a message`}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={onKey}
          />
          <div className="flex gap-2">
            {chat.busy ? (
              <button type="button" className="btn btn-warning" data-testid="stop" onClick={chat.stop}>
                <Trans>Stop</Trans>
              </button>
            ) : (
              <button type="submit" className="btn btn-primary" data-testid="send" disabled={disabled || !text.trim()}>
                <Trans>Send</Trans>
              </button>
            )}
            <button type="button" className="btn" data-testid="clear" disabled={chat.busy} onClick={chat.clear}>
              <Trans>Clear</Trans>
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
