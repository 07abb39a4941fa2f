import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { Modal } from "../../../../components/Modal";
import { TextField } from "../../../../components/form/TextField";
import type { PriceRow } from "./price-rows";

export interface RowInput {
  name: string;
  price: string;
  ratio: string;
  completionRatio: string;
}

const text = (n: number | undefined) => (n === undefined ? "" : String(n));

/** Adds or edits one model; a fixed price disables the ratio fields. */
export function PriceRowDialog({
  row,
  onSubmit,
  onClose,
}: {
  row?: PriceRow;
  onSubmit: (input: RowInput) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const [input, setInput] = useState<RowInput>({
    name: row?.name ?? "",
    price: text(row?.price),
    ratio: text(row?.ratio),
    completionRatio: text(row?.completionRatio),
  });
  const set = (key: keyof RowInput) => (value: string) => setInput((i) => ({ ...i, [key]: value }));
  const fixed = input.price.trim() !== "";
  return (
    <Modal
      title={row ? <Trans>Edit model price</Trans> : <Trans>Add model</Trans>}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>
            <Trans>Cancel</Trans>
          </button>
          <button
            type="button"
            className="btn btn-primary"
            data-testid="price-row-submit"
            onClick={() => onSubmit(input)}
          >
            <Trans>Confirm</Trans>
          </button>
        </>
      }
    >
      <div data-testid="price-row-dialog">
        <TextField label={t`Model name`} name="model-name" value={input.name} onChange={set("name")} />
        <TextField
          label={t`Fixed price per request (USD)`}
          name="model-price"
          type="number"
          min={0}
          step="any"
          value={input.price}
          onChange={set("price")}
          hint={t`A fixed price takes priority over the ratios`}
        />
        <TextField
          label={t`Model ratio`}
          name="model-ratio"
          type="number"
          min={0}
          step="any"
          value={input.ratio}
          onChange={set("ratio")}
          disabled={fixed}
        />
        <TextField
          label={t`Completion ratio`}
          name="completion-ratio"
          type="number"
          min={0}
          step="any"
          value={input.completionRatio}
          onChange={set("completionRatio")}
          disabled={fixed}
        />
      </div>
    </Modal>
  );
}
