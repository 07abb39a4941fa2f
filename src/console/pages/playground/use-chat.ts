import { useLingui } from "@lingui/react/macro";
import { useRef, useState } from "react";
import { chatBody, postChat, refusalOf, type ChatSettings, type Turn } from "./chat-request";
import { readChatStream } from "./chat-stream";

/** A reply's states (spec §4): loading until the first piece, incomplete while streaming, then complete or error. */
export type MessageStatus = "loading" | "incomplete" | "complete" | "error";

export interface ChatMessage extends Turn {
  id: number;
  status: MessageStatus;
  error?: string;
}

let nextId = 1;

/** The conversation of the playground and the streaming call that answers each question. */
export function useChat(settings: ChatSettings) {
  const { t } = useLingui();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const running = useRef<AbortController | null>(null);
  const busy = messages.some((m) => m.status === "loading" || m.status === "incomplete");

  const update = (id: number, change: (m: ChatMessage) => Partial<ChatMessage>) =>
    setMessages((all) => all.map((m) => (m.id === id ? { ...m, ...change(m) } : m)));

  async function answer(id: number, turns: Turn[], controller: AbortController) {
    try {
      const response = await postChat(chatBody(settings, turns), controller.signal);
      if (!response.ok || !response.body) {
        const reason = await refusalOf(response);
        return update(id, () => ({ status: "error", error: reason }));
      }
      const done = await readChatStream(
        response.body,
        (piece) => update(id, (m) => ({ content: m.content + piece, status: "incomplete" })),
        t`Chat data could not be parsed`,
      );
      update(id, () =>
        done ? { status: "complete" } : { status: "error", error: t`The stream ended before it was complete` },
      );
    } catch (error) {
      if (controller.signal.aborted) return update(id, () => ({ status: "complete" }));
      update(id, () => ({ status: "error", error: error instanceof Error ? error.message : String(error) }));
    }
  }

  const send = (text: string) => {
    const question: ChatMessage = { id: nextId++, role: "user", content: text, status: "complete" };
    const reply: ChatMessage = { id: nextId++, role: "assistant", content: "", status: "loading" };
    const turns = [...messages, question]
      .filter((m) => m.status === "complete" && m.content)
      .map(({ role, content }) => ({ role, content }));
    setMessages((all) => [...all, question, reply]);
    const controller = new AbortController();
    running.current = controller;
    void answer(reply.id, turns, controller);
  };

  return {
    messages,
    busy,
    send,
    stop: () => running.current?.abort(),
    clear: () => setMessages([]),
  };
}
