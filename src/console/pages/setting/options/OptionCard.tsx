import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { toast } from "../../../state/toasts";
import type { FieldSpec, OptionValues } from "./field-spec";
import { OptionControl } from "./OptionControl";
import { prepareChanges } from "./prepare";
import type { Options } from "./use-options";

export interface OptionCardProps {
  title: string;
  fields: readonly FieldSpec[];
  options: Options;
  /** The success toast; "Saved" unless the card has its own. */
  savedMessage?: string;
  /** A reason to refuse saving, e.g. payment without a server address. */
  check?: (draft: OptionValues) => string | undefined;
  onSaved?: () => void;
  children?: ReactNode;
  testId?: string;
}

const pick = (values: OptionValues, fields: readonly FieldSpec[]): OptionValues =>
  Object.fromEntries(fields.map((f) => [f.key, f.kind === "secret" ? "" : (values[f.key] ?? "")]));

/** A titled group of option controls saved together; only changed keys are sent. */
export function OptionCard({
  title,
  fields,
  options,
  savedMessage,
  check,
  onSaved,
  children,
  testId,
}: OptionCardProps) {
  const { t } = useLingui();
  const loaded = options.values ?? {};
  const [draft, setDraft] = useState<OptionValues>(() => pick(loaded, fields));
  const previous = useRef(options.values);
  // Another card's save reloads every value: keep this card's unsaved edits, take what changed on the server.
  useEffect(() => {
    const before = previous.current ?? {};
    previous.current = options.values;
    const fresh = pick(options.values ?? {}, fields);
    setDraft((d) =>
      Object.fromEntries(
        fields.map((f) => [f.key, fresh[f.key] !== pick(before, [f])[f.key] ? fresh[f.key]! : (d[f.key] ?? "")]),
      ),
    );
  }, [options.values]);

  const save = async () => {
    const refusal = check?.(draft);
    if (refusal) return toast.error(refusal);
    const prepared = prepareChanges(fields, loaded, draft);
    if (!prepared.ok) {
      const label = prepared.label;
      return toast.error(
        prepared.problem === "invalid-json" ? t`${label}: not a valid JSON string` : t`${label}: check the input`,
      );
    }
    if (!(await options.save(prepared.changes, savedMessage ?? t`Saved`))) return;
    setDraft((d) => ({
      ...d,
      ...pick(
        {},
        fields.filter((f) => f.kind === "secret"),
      ),
    }));
    onSaved?.();
  };

  return (
    <section className="card bg-base-100 shadow" data-testid={testId}>
      <div className="card-body gap-1">
        <h2 className="card-title text-base">{title}</h2>
        <div className="grid grid-cols-1 tablet:grid-cols-2 gap-x-6">
          {fields.map((field) => (
            <div
              key={field.key}
              className={field.kind === "textarea" || field.kind === "json" ? "tablet:col-span-2" : ""}
            >
              <OptionControl
                field={field}
                value={draft[field.key] ?? ""}
                onChange={(value) => setDraft((d) => ({ ...d, [field.key]: value }))}
              />
            </div>
          ))}
        </div>
        <div className="card-actions mt-2">
          <button type="button" className="btn btn-primary btn-sm" data-testid="save" onClick={save}>
            <Trans>Save</Trans>
          </button>
        </div>
        {children}
      </div>
    </section>
  );
}
