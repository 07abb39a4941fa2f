import { useLingui } from "@lingui/react/macro";
import { fillChatLink, siteChatLinks } from "../../chat-links";
import { PopoverMenu } from "../../components/PopoverMenu";
import { revealKey } from "./token-api";

/** The site's chat clients (Chats option); choosing one opens it with this token's key and the server address. */
export function ChatMenu({ tokenId }: { tokenId: number }) {
  const { t } = useLingui();
  const links = siteChatLinks();
  const open = async (template: string) => {
    const key = await revealKey(tokenId);
    if (key) window.open(fillChatLink(template, key), "_blank", "noopener,noreferrer");
  };
  const items = (links ?? []).map((link) => ({
    key: link.name,
    label: link.name,
    onSelect: () => void open(link.template),
  }));
  const empty = links
    ? t`Contact the administrator to configure chat links`
    : t`Chat link configuration error, contact the administrator`;
  return <PopoverMenu label={t`Chat`} items={items} empty={empty} testId="chat-menu" />;
}
