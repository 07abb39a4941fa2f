import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import {
  Bot,
  FileText,
  Gauge,
  Image,
  KeyRound,
  type LucideIcon,
  MessagesSquare,
  Music,
  Network,
  Settings,
  Ticket,
  Users,
  Wallet,
} from "lucide-react";
import { Link, useLocation } from "wouter";
import { closeSidebarOnMobile } from "../../state/layout";
import { platform } from "../../state/status";
import { currentUser } from "../../state/user";
import { visibleMenu, type MenuId } from "./menu-items";

function useMenuLabels(): Record<MenuId, string> {
  const { t } = useLingui();
  return {
    playground: t`Playground`,
    channel: t`Channels`,
    chat: t`Chat`,
    token: t`Tokens`,
    detail: t`Dashboard`,
    redemption: t`Redemption codes`,
    topup: t`Wallet`,
    user: t`Users`,
    log: t`Logs`,
    midjourney: t`Drawing`,
    task: t`Tasks`,
    setting: t`Settings`,
  };
}

/** Each menu entry's icon; a new entry without one is a compile error. */
const ICONS: Record<MenuId, LucideIcon> = {
  playground: Bot,
  channel: Network,
  chat: MessagesSquare,
  token: KeyRound,
  detail: Gauge,
  redemption: Ticket,
  topup: Wallet,
  user: Users,
  log: FileText,
  midjourney: Image,
  task: Music,
  setting: Settings,
};

export function SideMenu() {
  useSignals();
  const labels = useMenuLabels();
  const [location] = useLocation();
  const items = visibleMenu(currentUser.value?.role ?? 0, platform.value);
  return (
    <nav
      aria-label="side menu"
      data-testid="side-menu"
      className="bg-base-200 w-52 shrink-0 overflow-auto max-tablet:fixed max-tablet:inset-y-0 max-tablet:left-0 max-tablet:top-16 max-tablet:z-40 max-tablet:shadow-xl"
    >
      <ul className="menu w-full">
        {items.map((item) => {
          const Icon = ICONS[item.id];
          return (
            <li key={item.id}>
              <Link
                href={item.path}
                className={location.startsWith(item.path) ? "menu-active" : ""}
                onClick={closeSidebarOnMobile}
                data-menu={item.id}
              >
                <Icon size={16} aria-hidden="true" />
                {labels[item.id]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
