import { platform } from "./state/status";

/** One chat client of the Chats option: its name and the link template with {key} and {address} placeholders. */
export interface ChatLink {
  name: string;
  template: string;
}

/**
 * The Chats option as /api/status gives it (`chats`: a list of {name: url-template}), in order;
 * undefined when it is not that shape (the spec's "chat link config error").
 */
export function chatLinksOf(chats: unknown): ChatLink[] | undefined {
  if (!Array.isArray(chats)) return undefined;
  const links: ChatLink[] = [];
  for (const entry of chats) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
    for (const [name, template] of Object.entries(entry)) {
      if (typeof template !== "string") return undefined;
      links.push({ name, template });
    }
  }
  return links;
}

/** The site's chat clients, from the platform status held locally. */
export const siteChatLinks = (): ChatLink[] | undefined =>
  chatLinksOf((platform.value as { chats?: unknown } | null)?.chats ?? []);

/** Where clients reach this gateway: the ServerAddress option, else the console's own origin. */
export const serverAddress = (): string => platform.value?.server_address || window.location.origin;

/** A chat link for a whole token key ("sk-…"): {address} gets the encoded server address, {key} the key. */
export const fillChatLink = (template: string, key: string, address = serverAddress()): string =>
  template.replaceAll("{address}", encodeURIComponent(address)).replaceAll("{key}", key);
