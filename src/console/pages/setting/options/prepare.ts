import { changedKeys } from "../../../diff";
import type { FieldSpec, OptionValues } from "./field-spec";

export type Prepared =
  | { ok: true; changes: OptionValues }
  | { ok: false; problem: "invalid-json" | "invalid-number"; label: string };

export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a card sends: the fields whose value differs from the last loaded one, after the spec's rules
 * (trailing slashes stripped from addresses, secrets only when typed, JSON and numbers checked first).
 */
export function prepareChanges(fields: readonly FieldSpec[], loaded: OptionValues, draft: OptionValues): Prepared {
  const candidate: OptionValues = {};
  const before: OptionValues = {};
  for (const field of fields) {
    let value = draft[field.key] ?? "";
    if (field.kind === "address") value = value.trim().replace(/\/+$/, "");
    if (field.kind === "secret" && value === "") continue;
    if (field.kind === "json" && !isJson(value)) return { ok: false, problem: "invalid-json", label: field.label };
    if (field.kind === "number" && (value.trim() === "" || !(Number(value) >= field.min))) {
      return { ok: false, problem: "invalid-number", label: field.label };
    }
    candidate[field.key] = value;
    before[field.key] = loaded[field.key] ?? "";
  }
  const changes: OptionValues = {};
  for (const key of changedKeys(before, candidate)) changes[key] = candidate[key]!;
  return { ok: true, changes };
}
