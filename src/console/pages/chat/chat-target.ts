import { siteChatLinks, type ChatLink } from "../../chat-links";
import { platform } from "../../state/status";

/** The status fields of the chat pages beyond the shared ones. */
const chatLinkOption = (): string => ((platform.value as { chat_link?: string } | null)?.chat_link ?? "").trim();

/** The ChatLink option is a ChatGPT Next Web address: it takes the key and the server address in its settings. */
const nextWebTemplate = (address: string) =>
  `${address.replace(/\/+$/, "")}/#/?settings={"key":"{key}","url":"{address}"}`;

export type Target = { template: string } | { problem: "config" | "none" | "unset" };

/** The chat clients: the Chats option, else the ChatLink option as one client; undefined when Chats is malformed. */
function chatClients(): ChatLink[] | undefined {
  const links = siteChatLinks();
  if (!links || links.length > 0 || !chatLinkOption()) return links;
  return [{ name: "ChatGPT Next Web", template: nextWebTemplate(chatLinkOption()) }];
}

/** /chat/{id}: the id-th chat client (the first without an id). */
export function chatPageTarget(id: string | undefined): Target {
  const clients = chatClients();
  if (!clients) return { problem: "config" };
  if (clients.length === 0) return { problem: "none" };
  const client = clients[Number(id ?? 0)];
  return client ? { template: client.template } : { problem: "config" };
}

/** /chat2link: the ChatLink option, else the first chat client. */
export function chatRedirectTarget(): Target {
  if (chatLinkOption()) return { template: nextWebTemplate(chatLinkOption()) };
  const first = siteChatLinks()?.[0];
  return first ? { template: first.template } : { problem: "unset" };
}

/** Only web addresses are opened, whatever the template says. */
export function isWebAddress(link: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(link).protocol);
  } catch {
    return false;
  }
}
