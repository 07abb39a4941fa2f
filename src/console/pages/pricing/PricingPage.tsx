import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useMemo, useState } from "react";
import { PAGE_SIZE_CHOICES, QUOTA_PER_UNIT } from "../../../shared/constants";
import type { Pricing } from "../../../shared/views/pricing";
import { DataTable } from "../../components/table/DataTable";
import { platform } from "../../state/status";
import { currentUser } from "../../state/user";
import { GroupPicker } from "./GroupPicker";
import type { PriceUnit } from "./price-text";
import { loadPricing } from "./pricing";
import { usePricingColumns } from "./pricing-columns";
import { useLocalPage } from "./use-local-page";

/** /pricing (public): every priced model, the groups serving it, its ratios and prices per 1M tokens. */
export default function PricingPage() {
  useSignals();
  const { t } = useLingui();
  const [pricing, setPricing] = useState<Pricing>();
  const [chosen, setChosen] = useState(currentUser.value?.group ?? "default");
  const [keyword, setKeyword] = useState("");
  const [unit, setUnit] = useState<PriceUnit>(platform.value?.display_in_currency === false ? "quota" : "currency");
  useEffect(() => {
    void loadPricing().then(setPricing);
  }, []);
  const usable = pricing?.usable_group ?? {};
  const group = chosen in usable ? chosen : (Object.keys(usable)[0] ?? chosen);
  const groupRatio = pricing?.group_ratio[group] ?? usable[group]?.ratio ?? 1;
  const usableNames = useMemo(() => new Set(Object.keys(pricing?.usable_group ?? {})), [pricing]);
  const matching = (pricing?.data ?? []).filter((m) =>
    m.model_name.toLowerCase().includes(keyword.trim().toLowerCase()),
  );
  const page = useLocalPage(matching);
  const columns = usePricingColumns({
    group,
    groupRatio,
    usable: usableNames,
    unit,
    quotaPerUnit: platform.value?.quota_per_unit || QUOTA_PER_UNIT,
  });
  return (
    <div className="flex flex-col gap-3" data-testid="pricing-page">
      <section className="card bg-base-100 shadow">
        <div className="card-body gap-3">
          <h1 className="card-title">
            <Trans>Model pricing</Trans>
          </h1>
          <p className="text-sm opacity-70">
            <Trans>
              Price per 1M tokens = model ratio × 2 × group ratio (USD); the output price is multiplied by the
              completion ratio; a fixed per-call price overrides the ratios.
            </Trans>
          </p>
          <GroupPicker usable={usable} group={group} onChange={setChosen} />
          <div className="flex flex-wrap gap-2 items-center">
            <input
              className="input input-sm w-64 max-tablet:w-full"
              name="model-search"
              placeholder={t`Search models`}
              value={keyword}
              onChange={(e) => {
                setKeyword(e.currentTarget.value);
                page.firstPage();
              }}
            />
            <div className="join" role="group" aria-label={t`Show prices in`}>
              {(["currency", "quota"] as const).map((choice) => (
                <button
                  key={choice}
                  type="button"
                  data-unit={choice}
                  className={`btn btn-sm join-item ${unit === choice ? "btn-active btn-primary" : ""}`}
                  onClick={() => setUnit(choice)}
                >
                  {choice === "currency" ? t`US dollars` : t`Quota units`}
                </button>
              ))}
            </div>
          </div>
        </div>
      </section>
      <DataTable
        columns={columns}
        rows={page.rows}
        total={page.total}
        pagination={page.pagination}
        onPagination={page.onPagination}
        rowId={(m) => m.model_name}
        pageSizes={PAGE_SIZE_CHOICES}
        testId="pricing-table"
      />
    </div>
  );
}
