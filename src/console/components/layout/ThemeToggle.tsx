import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { theme, toggleTheme } from "../../state/theme";

export function ThemeToggle() {
  useSignals();
  const { t } = useLingui();
  const dark = theme.value === "dark";
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm btn-square"
      data-testid="theme-toggle"
      onClick={toggleTheme}
      aria-label={dark ? t`Switch to light theme` : t`Switch to dark theme`}
      title={dark ? t`Switch to light theme` : t`Switch to dark theme`}
    >
      {dark ? "☀" : "☾"}
    </button>
  );
}
