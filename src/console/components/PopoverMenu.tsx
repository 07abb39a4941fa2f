import { useId, type ReactNode } from "react";

interface PopoverMenuProps {
  /** The button's content. */
  label: ReactNode;
  items: { key: string; label: ReactNode; onSelect: () => void }[];
  /** Shown instead of items when there are none. */
  empty?: ReactNode;
  className?: string;
  /** Tooltip and accessible name of the button. */
  title?: string;
  testId?: string;
}

/**
 * A menu under a button, in the top layer (popover API with CSS anchor positioning), so a scrolling
 * table does not clip it.
 */
export function PopoverMenu({ label, items, empty, className = "btn btn-xs", title, testId }: PopoverMenuProps) {
  const id = useId();
  const anchor = `--menu${id.replace(/[^a-zA-Z0-9]/g, "")}`;
  const close = () => document.getElementById(id)?.hidePopover();
  return (
    <>
      <button
        type="button"
        className={className}
        popoverTarget={id}
        style={{ anchorName: anchor }}
        title={title}
        aria-label={title}
        data-testid={testId}
      >
        {label}
      </button>
      <ul
        popover="auto"
        id={id}
        className="dropdown dropdown-end menu bg-base-100 rounded-box shadow-lg w-56 max-h-72 overflow-auto flex-nowrap p-2"
        style={{ positionAnchor: anchor }}
        data-testid={testId && `${testId}-items`}
      >
        {items.length === 0 && <li className="menu-disabled px-2 py-1 text-sm">{empty}</li>}
        {items.map((item) => (
          <li key={item.key}>
            <button
              type="button"
              className="break-all"
              onClick={() => {
                close();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
