import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { api } from "../../../../api";
import { ConfirmDialog } from "../../../../components/ConfirmDialog";
import { TextArea } from "../../../../components/form/TextArea";
import { toast } from "../../../../state/toasts";
import type { FieldSpec, OptionValues } from "../../options/field-spec";
import { isJson, prepareChanges } from "../../options/prepare";
import type { Options } from "../../options/use-options";
import { mapsFromRows, parseMaps, rowsFromMaps, type PriceMaps, type PriceRow } from "./price-rows";
import { VisualPriceTable } from "./VisualPriceTable";

type Texts = Record<keyof PriceMaps, string>;
const KEYS = ["ModelPrice", "ModelRatio", "CompletionRatio"] as const;

const pretty = (text: string) => (isJson(text) ? JSON.stringify(JSON.parse(text), null, 2) : text);
const textsOf = (values: OptionValues): Texts =>
  Object.fromEntries(KEYS.map((k) => [k, pretty(values[k] ?? "{}")])) as Texts;
/** The server stores compact JSON; compare in that form so layout alone is no change. */
const compact = (texts: Texts): OptionValues =>
  Object.fromEntries(KEYS.map((k) => [k, isJson(texts[k]) ? JSON.stringify(JSON.parse(texts[k])) : texts[k]]));

/** Model prices: JSON text or a visual table over the same three maps, saved together. */
export function ModelPriceEditor({ options }: { options: Options }) {
  const { t } = useLingui();
  const [tab, setTab] = useState<"json" | "visual">("visual");
  const [texts, setTexts] = useState<Texts>(() => textsOf(options.values ?? {}));
  const [resetting, setResetting] = useState(false);
  useEffect(() => setTexts(textsOf(options.values ?? {})), [options.values]);

  const labels: Texts = {
    ModelPrice: t`Fixed model prices (JSON)`,
    ModelRatio: t`Model ratios (JSON)`,
    CompletionRatio: t`Completion ratios (JSON)`,
  };
  const fields: FieldSpec[] = KEYS.map((key) => ({ key, kind: "json", label: labels[key] }));
  const maps = parseMaps(texts);

  const save = async () => {
    const prepared = prepareChanges(fields, options.values ?? {}, compact(texts));
    if (!prepared.ok) {
      const label = prepared.label;
      return toast.error(t`${label}: not a valid JSON string`);
    }
    await options.save(prepared.changes, t`Saved`);
  };
  const setRows = (rows: PriceRow[]) => {
    const next = mapsFromRows(rows);
    setTexts({
      ModelPrice: JSON.stringify(next.ModelPrice, null, 2),
      ModelRatio: JSON.stringify(next.ModelRatio, null, 2),
      CompletionRatio: JSON.stringify(next.CompletionRatio, null, 2),
    });
  };
  const reset = async () => {
    setResetting(false);
    const reply = await api.post("/api/option/rest_model_ratio");
    if (!reply.ok) return;
    toast.success(t`Model ratios reset`);
    await options.reload();
  };

  return (
    <section className="card bg-base-100 shadow" data-testid="card-prices">
      <div className="card-body gap-2">
        <h2 className="card-title text-base">
          <Trans>Model prices</Trans>
        </h2>
        <div role="tablist" className="tabs tabs-border">
          <button
            type="button"
            role="tab"
            className={`tab ${tab === "visual" ? "tab-active" : ""}`}
            onClick={() => setTab("visual")}
          >
            <Trans>Visual editor</Trans>
          </button>
          <button
            type="button"
            role="tab"
            className={`tab ${tab === "json" ? "tab-active" : ""}`}
            onClick={() => setTab("json")}
          >
            <Trans>JSON text</Trans>
          </button>
        </div>
        {tab === "json" &&
          KEYS.map((key) => (
            <TextArea
              key={key}
              label={labels[key]}
              name={key}
              monospace
              rows={8}
              value={texts[key]}
              onChange={(value) => setTexts({ ...texts, [key]: value })}
            />
          ))}
        {tab === "visual" &&
          (maps ? (
            <VisualPriceTable rows={rowsFromMaps(maps)} onRows={setRows} />
          ) : (
            <div role="alert" className="alert alert-error">
              <Trans>The JSON text is not valid; fix it in the JSON tab first.</Trans>
            </div>
          ))}
        <div className="card-actions mt-2">
          <button type="button" className="btn btn-primary btn-sm" data-testid="save" onClick={save}>
            <Trans>Save</Trans>
          </button>
          <button type="button" className="btn btn-sm btn-error btn-outline" onClick={() => setResetting(true)}>
            <Trans>Reset model ratios</Trans>
          </button>
        </div>
        {resetting && (
          <ConfirmDialog
            danger
            title={<Trans>Reset model ratios</Trans>}
            onConfirm={reset}
            onCancel={() => setResetting(false)}
          >
            <Trans>All model prices, ratios and completion ratios go back to the defaults.</Trans>
          </ConfirmDialog>
        )}
      </div>
    </section>
  );
}
