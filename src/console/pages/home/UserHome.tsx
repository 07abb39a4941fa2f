import { Trans, useLingui } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { Activity, CircleDollarSign, Wallet } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import type { Pricing } from "../../../shared/views/pricing";
import { platform, showMoney, showQuota } from "../../state/status";
import { useApiData } from "../../use-api-data";
import type { Bucket } from "../detail/buckets";
import { nowSeconds } from "../log/time";
import { loadPricing, priceOf } from "../pricing/pricing";
import { priceLines } from "../pricing/price-text";
import { ConnectClient } from "./ConnectClient";
import { homeCalls, hourlySpend } from "./home-data";
import { Sparkline } from "./Sparkline";

function Stat({
  icon,
  title,
  value,
  testId,
  children,
}: {
  icon: ReactNode;
  title: string;
  value: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div className="stat bg-base-100 rounded-box shadow border-0" data-testid={testId}>
      <div className="stat-figure text-primary">{icon}</div>
      <div className="stat-title">{title}</div>
      <div className="stat-value text-2xl" data-testid={`${testId}-value`}>
        {value}
      </div>
      {children && <div className="stat-desc">{children}</div>}
    </div>
  );
}

/** The usable models with their prices per 1M tokens (or per call) in the user's group. */
function UsableModels({ models, group }: { models: string[]; group: string }) {
  const { t } = useLingui();
  const [pricing, setPricing] = useState<Pricing>();
  useEffect(() => void loadPricing().then(setPricing), []);
  const rows = useMemo(() => {
    const byName = new Map((pricing?.data ?? []).map((row) => [row.model_name, row]));
    const ratio = pricing?.group_ratio[group] ?? 1;
    const perUnit = platform.value?.quota_per_unit || 500_000;
    return models.map((name) => {
      const row = byName.get(name);
      return { name, lines: row ? priceLines(priceOf(row, ratio), "currency", perUnit, showMoney) : undefined };
    });
  }, [pricing, models, group]);
  return (
    <div className="card bg-base-100 shadow" data-testid="home-models">
      <div className="card-body p-4">
        <h2 className="card-title text-base">
          <Trans>Models you can use</Trans>
        </h2>
        {rows.length === 0 ? (
          <p className="opacity-70">
            <Trans>No model is available to you yet.</Trans>
          </p>
        ) : (
          <div className="overflow-x-auto max-h-80">
            <table className="table table-sm">
              <thead>
                <tr>
                  <th>{t`Model`}</th>
                  <th>{t`Price (per 1M tokens or per call)`}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ name, lines }) => (
                  <tr key={name} data-model={name}>
                    <td className="font-mono text-xs break-all">{name}</td>
                    <td className="text-xs">
                      {lines?.call && t`${lines.call} per call`}
                      {lines?.input && t`input ${lines.input} · output ${lines.output}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}

/** The signed-in home (issue #22): balance, today's spend and calls with the last day's curve, models, and how to connect. */
export function UserHome() {
  useSignals();
  const { t } = useLingui();
  const calls = useMemo(() => homeCalls(nowSeconds()), []);
  const self = useApiData<{ quota: number; group: string }>("/api/user/self");
  const stat = useApiData<{ quota: number }>(calls.stat);
  const count = useApiData<{ total: number }>(calls.calls);
  const hourly = useApiData<Bucket[]>(calls.hourly, { quiet: true });
  const models = useApiData<string[]>("/api/user/models");
  const spend = hourlySpend(hourly.data ?? [], nowSeconds());
  return (
    <div className="flex flex-col gap-4" data-testid="user-home">
      <div className="grid grid-cols-1 tablet:grid-cols-3 gap-3">
        <Stat
          icon={<Wallet aria-hidden="true" />}
          title={t`Balance`}
          value={self.data ? showQuota(self.data.quota) : "…"}
          testId="home-balance"
        />
        <Stat
          icon={<CircleDollarSign aria-hidden="true" />}
          title={t`Spent today`}
          value={stat.data ? showQuota(stat.data.quota) : "…"}
          testId="home-spend"
        >
          <Sparkline values={spend} label={t`Spending over the last 24 hours`} />
        </Stat>
        <Stat
          icon={<Activity aria-hidden="true" />}
          title={t`Calls today`}
          value={count.data ? String(count.data.total) : "…"}
          testId="home-calls"
        />
      </div>
      <div className="grid grid-cols-1 xl:grid-cols-2 gap-4">
        <ConnectClient models={models.data ?? []} />
        <UsableModels models={models.data ?? []} group={self.data?.group ?? "default"} />
      </div>
    </div>
  );
}
