import { t } from "@lingui/core/macro";
import { Box, Text } from "ink";
import { useMemo } from "react";
import type { ColumnTotals } from "../../service/stats/overview";
import { openOverview } from "../../service/stats/overview";
import { useTui } from "./context";
import { clockOf, countOf, percentOf, quotaOf } from "./format";
import type { KeyHelp } from "./help-bar";
import { usePoll } from "./poll";
import { Table, type Column } from "./table";

export const OVERVIEW_REFRESH_MS = 2000;

export const overviewKeys = (): KeyHelp[] => [];

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box width={38}>
      <Box width={22}>
        <Text dimColor>{label}</Text>
      </Box>
      <Text bold>{value}</Text>
    </Box>
  );
}

function Ranking({ title, nameHeader, rows }: { title: string; nameHeader: string; rows: ColumnTotals[] }) {
  const { ctx } = useTui();
  const columns: Column<ColumnTotals>[] = [
    { header: nameHeader, grow: true, value: (row) => row.name || "-" },
    { header: t`Requests`, width: 8, right: true, value: (row) => countOf(row.requests) },
    {
      header: t({ message: "Spent", context: "quota" }),
      width: 9,
      right: true,
      value: (row) => quotaOf(ctx, row.quota),
    },
  ];
  return (
    <Box flexDirection="column" width={38} marginRight={1}>
      <Text bold underline>
        {title}
      </Text>
      <Table columns={columns} rows={rows} rowKey={(row) => row.name} empty={t`none yet`} />
    </Box>
  );
}

/** Requests and tokens per minute, quota spent today, the error rate and today's top models and users, every 2 s. */
export function OverviewScreen() {
  const { ctx, actor } = useTui();
  const feed = useMemo(() => openOverview(ctx, actor), [ctx, actor]);
  const { data, error } = usePoll(() => feed.read(), "overview", OVERVIEW_REFRESH_MS);
  if (!data) return <Text color={error ? "red" : undefined}>{error ?? t`Loading…`}</Text>;
  const { errors } = data;
  const time = clockOf(data.at);
  const errorRate =
    errors.rate === null
      ? t`not recorded (ErrorLogEnabled is off)`
      : `${percentOf(errors.rate)}  (${errors.failed}/${errors.calls})`;
  return (
    <Box flexDirection="column" paddingX={1}>
      <Box marginTop={1}>
        <Figure label={t`Requests / min`} value={countOf(data.requestsPerMinute)} />
        <Figure label={t`Tokens / min`} value={countOf(data.tokensPerMinute)} />
      </Box>
      <Box>
        <Figure label={t`Quota spent today`} value={quotaOf(ctx, data.quotaToday)} />
        <Figure label={t`Requests today`} value={countOf(data.requestsToday)} />
      </Box>
      <Box>
        <Box width={22}>
          <Text dimColor>{t`Error rate (1 h)`}</Text>
        </Box>
        <Text bold color={errors.rate ? "red" : undefined} wrap="truncate-end">
          {errorRate}
        </Text>
      </Box>
      <Box marginTop={1}>
        <Ranking title={t`Top models today`} nameHeader={t`Model`} rows={data.topModels} />
        <Ranking title={t`Top users today`} nameHeader={t`User`} rows={data.topUsers} />
      </Box>
      <Box marginTop={1}>
        <Text dimColor>
          {t`Updated ${time}, every 2 s`}
          {error ? <Text color="red">{`  ${error}`}</Text> : null}
        </Text>
      </Box>
    </Box>
  );
}
