import { Role } from "../../../shared/constants";

export type MenuId =
  | "playground"
  | "channel"
  | "chat"
  | "token"
  | "detail"
  | "redemption"
  | "topup"
  | "user"
  | "log"
  | "midjourney"
  | "task"
  | "setting";

type Switch = "enable_data_export" | "enable_drawing" | "enable_task";

interface MenuItem {
  id: MenuId;
  path: string;
  adminOnly?: boolean;
  /** Shown only when this platform-status switch is on. */
  needs?: Switch;
}

/** The side menu of the spec, in its order. */
const SIDE_MENU: readonly MenuItem[] = [
  { id: "playground", path: "/playground" },
  { id: "channel", path: "/channel", adminOnly: true },
  { id: "chat", path: "/chat" },
  { id: "token", path: "/token" },
  { id: "detail", path: "/detail", needs: "enable_data_export" },
  { id: "redemption", path: "/redemption", adminOnly: true },
  { id: "topup", path: "/topup" },
  { id: "user", path: "/user", adminOnly: true },
  { id: "log", path: "/log" },
  { id: "midjourney", path: "/midjourney", needs: "enable_drawing" },
  { id: "task", path: "/task", needs: "enable_task" },
  { id: "setting", path: "/setting" },
];

export function visibleMenu(role: number, switches: Partial<Record<Switch, boolean>> | null): MenuItem[] {
  return SIDE_MENU.filter(
    (item) => (!item.adminOnly || role >= Role.Admin) && (!item.needs || switches?.[item.needs] === true),
  );
}
