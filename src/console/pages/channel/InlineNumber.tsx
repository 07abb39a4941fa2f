import { useEffect, useState } from "react";
import { toast } from "../../state/toasts";
import type { Parsed } from "./channel-rules";

interface InlineNumberProps {
  value: number;
  name: string;
  label: string;
  /** Reads the typed text: a value to save or a refusal to show. */
  parse: (text: string) => Parsed;
  onSave: (value: number) => Promise<boolean>;
}

/** A number edited in its table cell; saved when it loses focus (or on Enter) if it changed. */
export function InlineNumber({ value, name, label, parse, onSave }: InlineNumberProps) {
  const [text, setText] = useState(String(value));
  // What the server holds as far as this cell knows: a save lands here before the list reloads.
  const [saved, setSaved] = useState(value);
  useEffect(() => {
    setSaved(value);
    setText(String(value));
  }, [value]);
  const commit = async () => {
    if (text.trim() === String(saved)) return;
    const parsed = parse(text);
    if (!parsed.ok) {
      toast.error(parsed.message);
      return setText(String(saved));
    }
    setText(String(parsed.value));
    if (parsed.value === saved) return;
    if (await onSave(parsed.value)) setSaved(parsed.value);
    else setText(String(saved));
  };
  return (
    <input className="input input-xs w-16" type="number" step="1" name={name} aria-label={label} value={text}
      onChange={(e) => setText(e.currentTarget.value)} onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
      }} />
  );
}
