import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { isShown, setShown, showAllColumns } from "./column-prefs";

/** The column-settings control: a checkbox per column, kept locally. */
export function ColumnSettings({ columns }: { columns: { id: string; label: string }[] }) {
  useSignals();
  return (
    <div className="dropdown dropdown-end">
      <button type="button" tabIndex={0} className="btn btn-sm" data-testid="column-settings">
        <Trans>Columns</Trans>
      </button>
      <div
        tabIndex={0}
        className="dropdown-content bg-base-100 rounded-box z-40 w-52 p-3 shadow flex flex-col gap-1"
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
    </div>
  );
}
