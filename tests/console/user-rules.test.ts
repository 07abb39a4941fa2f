import { describe, expect, test } from "bun:test";
import { visibleMenu } from "../../src/console/components/layout/menu-items";
import { offeredActions, userListUrl } from "../../src/console/pages/user/admin-user";
import type { UserView } from "../../src/shared/views/user";

const user = (status: number, DeletedAt: number | null = null) => ({ status, DeletedAt }) as UserView;

describe("admin actions offered per row", () => {
  test("an active user: promote, demote, disable, delete", () => {
    expect(offeredActions(user(1))).toEqual(["promote", "demote", "disable", "delete"]);
  });
  test("a banned user: enable instead of disable", () => {
    expect(offeredActions(user(2))).toEqual(["promote", "demote", "enable", "delete"]);
  });
  test("status 3: neither enable nor disable", () => {
    expect(offeredActions(user(3))).toEqual(["promote", "demote", "delete"]);
  });
  test("a deleted user: no actions", () => {
    expect(offeredActions(user(1, 1700000000))).toEqual([]);
  });
});

describe("user list requests", () => {
  test("without filters the list route, with a keyword or group the search route", () => {
    expect(userListUrl("", "", 2, 20)).toBe("/api/user/?p=2&page_size=20");
    expect(userListUrl("ann", "", 1, 10)).toBe("/api/user/search?p=1&page_size=10&keyword=ann&group=");
  });
});

describe("side menu visibility", () => {
  const ids = (role: number, switches: Parameters<typeof visibleMenu>[1]) =>
    visibleMenu(role, switches).map((i) => i.id);
  test("admin items need role >= 10", () => {
    expect(ids(1, {})).toEqual(["playground", "chat", "token", "topup", "log", "setting"]);
    expect(ids(10, {})).toEqual([
      "playground",
      "channel",
      "chat",
      "token",
      "redemption",
      "topup",
      "user",
      "log",
      "setting",
    ]);
  });
  test("dashboard, drawing and tasks only when enabled", () => {
    expect(ids(1, { enable_data_export: true, enable_drawing: true, enable_task: true })).toEqual([
      "playground",
      "chat",
      "token",
      "detail",
      "topup",
      "log",
      "midjourney",
      "task",
      "setting",
    ]);
  });
});
