import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { Columns3 } from "lucide-react";
import { useId } from "react";
import { isShown, setShown, showAllColumns } from "./column-prefs";

/**
 * The column-settings control: a checkbox per column, kept locally. The menu is a popover, so while
 * closed it is not rendered at all and cannot catch clicks meant for the table under it.
 */
export function ColumnSettings({ columns }: { columns: { id: string; label: string }[] }) {
  useSignals();
  const { t } = useLingui();
  const id = useId();
  const anchor = `--columns${id.replace(/[^a-zA-Z0-9]/g, "")}`;
  return (
    <>
      <button
        type="button"
        className="btn btn-sm"
        popoverTarget={id}
        style={{ anchorName: anchor }}
        data-testid="column-settings"
        title={t`Column settings`}
      >
        <Columns3 size={16} aria-hidden="true" />
        <Trans>Columns</Trans>
      </button>
      <div
        popover="auto"
        id={id}
        className="dropdown dropdown-end bg-base-100 rounded-box w-52 p-3 shadow flex-col gap-1 [&:popover-open]:flex"
        style={{ positionAnchor: anchor }}
        data-testid="column-menu"
      >
        {columns.map((c) => (
          <label key={c.id} className="label cursor-pointer justify-start gap-2 text-base-content">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              data-column={c.id}
              checked={isShown(c.id)}
              onChange={(e) => setShown(c.id, e.currentTarget.checked)}
            />
            {c.label}
          </label>
        ))}
        <button type="button" className="btn btn-xs btn-ghost mt-1" onClick={showAllColumns}>
          <Trans>Show all columns</Trans>
        </button>
      </div>
    </>
  );
}
