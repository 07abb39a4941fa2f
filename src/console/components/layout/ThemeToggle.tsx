import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { Moon, Sun } from "lucide-react";
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
      {dark ? <Sun size={18} aria-hidden="true" /> : <Moon size={18} aria-hidden="true" />}
    </button>
  );
}
