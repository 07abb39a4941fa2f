import type { ReactNode } from "react";

interface ToggleProps {
  label: ReactNode;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

export function Toggle({ label, name, checked, onChange }: ToggleProps) {
  return (
    <label className="label cursor-pointer gap-3 py-1 text-base-content">
      <input
        type="checkbox"
        className="toggle toggle-primary"
        name={name}
        checked={checked}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <span>{label}</span>
    </label>
  );
}
