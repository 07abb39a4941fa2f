import { useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { language, LANGUAGES, type Language } from "../../state/language";

export function LanguageSwitch() {
  useSignals();
  const { t } = useLingui();
  return (
    <select
      className="select select-sm select-ghost w-24 max-tablet:w-22"
      aria-label={t`Language`}
      data-testid="language"
      value={language.value}
      onChange={(e) => (language.value = e.currentTarget.value as Language)}
    >
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code}>
          {l.name}
        </option>
      ))}
    </select>
  );
}
