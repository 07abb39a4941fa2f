import { useLingui } from "@lingui/react/macro";
import { TextField } from "./TextField";

/** A per-minute limit as typed: a whole number ≥ 0 (0 for none). */
export const isLimitText = (text: string) => /^\s*\d+\s*$/.test(text);

interface RateLimitFieldsProps {
  rpm: string;
  tpm: string;
  onRpm: (value: string) => void;
  onTpm: (value: string) => void;
  /** What 0 means here (none, or the group's default). */
  zeroMeans: string;
}

/** Requests and tokens per minute, as on the token and user forms. */
export function RateLimitFields({ rpm, tpm, onRpm, onTpm, zeroMeans }: RateLimitFieldsProps) {
  const { t } = useLingui();
  const fields: [string, string, string, (value: string) => void][] = [
    ["rpm_limit", t`Requests per minute`, rpm, onRpm],
    ["tpm_limit", t`Tokens per minute`, tpm, onTpm],
  ];
  return (
    <div className="grid grid-cols-2 gap-2">
      {fields.map(([name, label, value, onChange]) => (
        <TextField
          key={name}
          label={label}
          name={name}
          type="number"
          step="1"
          value={value}
          onChange={onChange}
          hint={zeroMeans}
        />
      ))}
    </div>
  );
}
