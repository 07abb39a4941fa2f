import type { ReactNode } from "react";

/** One option's control on a settings card. */
export type FieldSpec =
  | { key: string; kind: "switch"; label: string; /** Asked before the switch turns off. */ confirmOff?: ReactNode }
  | { key: string; kind: "text" | "address" | "secret"; label: string; hint?: string; placeholder?: string }
  | { key: string; kind: "number"; label: string; hint?: string; min: number }
  | { key: string; kind: "textarea" | "json"; label: string; hint?: string; rows?: number }
  | { key: string; kind: "select"; label: string; options: { value: string; label: string }[] };

export type OptionValues = Record<string, string>;
