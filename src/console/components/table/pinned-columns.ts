/**
 * Columns that stay in view while a wide table scrolls sideways (a phone, or many columns): a row's actions are
 * pinned to the right edge and a log row's expand toggle to the left, so they are reachable without scrolling.
 * On a phone the action buttons wrap, keeping the pinned column narrow.
 */
const PINNED: Record<string, string> = {
  actions:
    "sticky right-0 z-[1] bg-base-100 shadow-[-6px_0_6px_-6px_rgb(0_0_0/0.3)] max-tablet:[&>div]:flex-wrap max-tablet:min-w-24",
  expand: "sticky left-0 z-[1] bg-base-100",
};

/** The class of a header or cell of column `id` ("" when it scrolls with the rest). */
export const pinnedClass = (id: string): string => PINNED[id] ?? "";
