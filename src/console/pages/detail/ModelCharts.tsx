import { useLingui } from "@lingui/react/macro";
import { useCallback, useMemo } from "react";
import { formatCount } from "../../../shared/quota-format";
import { showQuota } from "../../state/status";
import { ranking, seriesOf, type Bucket, type Granularity } from "./buckets";
import { ChartCanvas } from "./ChartCanvas";
import { ChartCard } from "./ChartCard";
import { coloursBy, shares, stackedBars } from "./charts";

/** Models shown by name in a chart; the rest are summed as "Other". */
const TOP = 8;

/** Consumption and call-count distributions over time, by model, and the models' share of consumption. */
export function ModelCharts({ rows, granularity }: { rows: Bucket[]; granularity: Granularity }) {
  const { t } = useLingui();
  const other = t`Others`;
  const ranked = useMemo(() => ranking(rows, "model_name", "quota"), [rows]);
  const colour = useMemo(() => coloursBy(ranked.map((r) => r.name)), [ranked]);
  const quota = useCallback(
    (dark: boolean) =>
      stackedBars(seriesOf(rows, "model_name", "quota", granularity, TOP, other), dark, showQuota, colour),
    [rows, granularity, other, colour],
  );
  const calls = useCallback(
    (dark: boolean) =>
      stackedBars(seriesOf(rows, "model_name", "count", granularity, TOP, other), dark, formatCount, colour),
    [rows, granularity, other, colour],
  );
  const share = useCallback(
    (dark: boolean) => {
      const rest = ranked.slice(TOP).reduce((sum, r) => sum + r.value, 0);
      return shares(
        rest > 0 ? [...ranked.slice(0, TOP), { name: other, value: rest }] : ranked,
        dark,
        showQuota,
        colour,
      );
    },
    [ranked, other, colour],
  );
  const empty = rows.length === 0;
  return (
    <>
      <ChartCard title={t`Consumption distribution`} empty={empty} testId="chart-consumption">
        <ChartCanvas build={quota} label={t`Consumption distribution`} testId="consumption-canvas" />
      </ChartCard>
      <ChartCard title={t`Call count distribution`} empty={empty} testId="chart-calls">
        <ChartCanvas build={calls} label={t`Call count distribution`} testId="calls-canvas" />
      </ChartCard>
      <ChartCard title={t`Model overview`} empty={empty} testId="chart-models">
        <ChartCanvas build={share} label={t`Model overview`} testId="models-canvas" />
      </ChartCard>
    </>
  );
}
