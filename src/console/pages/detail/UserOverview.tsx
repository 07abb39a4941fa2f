import { useLingui } from "@lingui/react/macro";
import { useCallback } from "react";
import { showQuota } from "../../state/status";
import { useApiData } from "../../use-api-data";
import { ranking, type Bucket } from "./buckets";
import { ChartCanvas } from "./ChartCanvas";
import { ChartCard } from "./ChartCard";
import { coloursBy, stackedBars } from "./charts";

const TOP_USERS = 10;

/** An admin's overview of the users who consumed most in the range (GET /api/data/users). */
export function UserOverview({ url }: { url: string }) {
  const { t } = useLingui();
  const users = useApiData<Bucket[]>(url);
  const rows = users.data ?? [];
  const name = t`Consumption`;
  const build = useCallback(
    (dark: boolean) => {
      const top = ranking(rows, "username", "quota").slice(0, TOP_USERS);
      return stackedBars(
        { labels: top.map((u) => u.name), series: [{ name, values: top.map((u) => u.value) }] },
        dark,
        showQuota,
        coloursBy([name]),
      );
    },
    [rows, name],
  );
  return (
    <ChartCard title={t`User overview`} empty={rows.length === 0} testId="chart-users">
      <ChartCanvas build={build} label={t`User overview`} testId="users-canvas" />
    </ChartCard>
  );
}
