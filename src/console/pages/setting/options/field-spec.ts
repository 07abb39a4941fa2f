import type { ReactNode } from "react";
import type {
  BoolOptionKey,
  ChoiceOptionKey,
  JsonOptionKey,
  NumberOptionKey,
  OptionKey,
  TextOptionKey,
} from "../../../../shared/option-keys";

/** One option's control on a settings card; the key must name an option whose kind the control can edit. */
export type FieldSpec =
  | {
      key: BoolOptionKey;
      kind: "switch";
      label: string /** Asked before the switch turns off. */;
      confirmOff?: ReactNode;
    }
  | { key: TextOptionKey; kind: "text" | "address" | "secret"; label: string; hint?: string; placeholder?: string }
  | { key: NumberOptionKey; kind: "number"; label: string; hint?: string; min: number }
  | { key: TextOptionKey; kind: "textarea"; label: string; hint?: string; rows?: number }
  | { key: JsonOptionKey; kind: "json"; label: string; hint?: string; rows?: number }
  | { key: ChoiceOptionKey; kind: "select"; label: string; options: { value: string; label: string }[] };

/** Option values as the server lists them (GET /api/option/), by key. */
export type OptionValues = Partial<Record<OptionKey, string>>;
