import { useEffect, useRef, useState } from "react";
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
  // The value this cell knows is stored. A save sets it before the list hears of it, so the list's late
  // re-render with that same value does not overwrite what the user has typed since.
  const known = useRef(value);
  useEffect(() => {
    if (value === known.current) return;
    known.current = value;
    setText(String(value));
  }, [value]);
  const commit = async () => {
    const before = known.current;
    if (text.trim() === String(before)) return;
    const parsed = parse(text);
    if (!parsed.ok) {
      toast.error(parsed.message);
      return setText(String(before));
    }
    setText(String(parsed.value));
    if (parsed.value === before) return;
    known.current = parsed.value;
    if (await onSave(parsed.value)) return;
    known.current = before;
    setText(String(before));
  };
  return (
    <input
      className="input input-xs w-16"
      type="number"
      step="1"
      name={name}
      aria-label={label}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
      }}
    />
  );
}
