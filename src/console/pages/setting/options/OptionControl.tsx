import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { SelectField } from "../../../components/form/SelectField";
import { TextArea } from "../../../components/form/TextArea";
import { TextField } from "../../../components/form/TextField";
import { Toggle } from "../../../components/form/Toggle";
import type { FieldSpec } from "./field-spec";

interface OptionControlProps {
  field: FieldSpec;
  value: string;
  onChange: (value: string) => void;
}

function OptionSwitch({
  field,
  value,
  onChange,
}: OptionControlProps & { field: Extract<FieldSpec, { kind: "switch" }> }) {
  const { t } = useLingui();
  const [asking, setAsking] = useState(false);
  const change = (on: boolean) => (!on && field.confirmOff ? setAsking(true) : onChange(String(on)));
  return (
    <>
      <Toggle label={field.label} name={field.key} checked={value === "true"} onChange={change} />
      {asking && (
        <ConfirmDialog
          danger
          title={t`Warning`}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            onChange("false");
          }}
        >
          {field.confirmOff}
        </ConfirmDialog>
      )}
    </>
  );
}

export function OptionControl({ field, value, onChange }: OptionControlProps) {
  const { t } = useLingui();
  switch (field.kind) {
    case "switch":
      return <OptionSwitch field={field} value={value} onChange={onChange} />;
    case "select":
      return (
        <SelectField label={field.label} name={field.key} value={value} options={field.options} onChange={onChange} />
      );
    case "textarea":
    case "json":
      return (
        <TextArea
          label={field.label}
          name={field.key}
          value={value}
          onChange={onChange}
          hint={field.hint}
          rows={field.rows}
          monospace={field.kind === "json"}
        />
      );
    case "number":
      return (
        <TextField
          label={field.label}
          name={field.key}
          type="number"
          min={field.min}
          step="any"
          value={value}
          onChange={onChange}
          hint={field.hint}
        />
      );
    case "secret":
      return (
        <TextField
          label={field.label}
          name={field.key}
          type="password"
          value={value}
          onChange={onChange}
          placeholder={t`Stored; type to replace`}
          hint={field.hint}
          autoComplete="off"
        />
      );
    default:
      return (
        <TextField
          label={field.label}
          name={field.key}
          value={value}
          onChange={onChange}
          hint={field.hint}
          placeholder={field.placeholder}
        />
      );
  }
}
