import { plural, t } from "@lingui/core/macro";
import { Box, Text, useInput } from "ink";
import { useState } from "react";
import { listChannels } from "../../service/channels/list";
import { updateChannel } from "../../service/channels/update";
import type { ChannelView } from "../../service/channels/view";
import { testChannel } from "../../service/relay/channel-tests";
import { ChannelStatus, channelTypeName } from "../../shared/channel-types";
import { useTui } from "./context";
import { parseFilter } from "./filter";
import type { KeyHelp } from "./help-bar";
import { ListFooter } from "./list-footer";
import { usePagedList, type PageOf } from "./paged-list";
import { Table, type Column } from "./table";

/** Channels change on their own (tests, automatic disables): the page is read again every 5 s. */
const REFRESH_MS = 5000;
const FILTER_FIELDS = ["model", "group"] as const;

export const channelKeys = (): KeyHelp[] => [
  ["/", t`filter`],
  ["t", t`test`],
  ["e", t`enable`],
  ["d", t`disable`],
  ["p", t`priority`],
  ["w", t`weight`],
];

const statusText = (status: number): string =>
  status === ChannelStatus.Enabled
    ? t`Enabled`
    : status === ChannelStatus.AutoDisabled
      ? t`Auto-disabled`
      : t`Disabled`;
const statusColor = (status: number): string =>
  status === ChannelStatus.Enabled ? "green" : status === ChannelStatus.AutoDisabled ? "yellow" : "red";
const seconds = (ms: number): string => (ms > 0 ? `${(ms / 1000).toFixed(2)} s` : "-");

const columns = (): Column<ChannelView>[] => [
  { header: "ID", width: 5, right: true, value: (c) => c.id },
  { header: t`Name`, grow: true, value: (c) => c.name },
  { header: t`Status`, width: 13, value: (c) => statusText(c.status), color: (c) => statusColor(c.status) },
  { header: t`Priority`, width: 8, right: true, value: (c) => c.priority },
  { header: t`Weight`, width: 6, right: true, value: (c) => c.weight },
  { header: t`Response`, width: 8, right: true, value: (c) => seconds(c.response_time) },
  { header: t`Group`, width: 12, value: (c) => c.group },
];

/** Channels, highest priority first: test, enable, disable (after y), priority and weight; filter by name, model: and group:. */
export function ChannelsScreen() {
  const { ctx, actor, probe, height, active, ask, run } = useTui();
  const [filter, setFilter] = useState("");
  const { text: keyword, fields } = parseFilter(filter, FILTER_FIELDS);
  const list = usePagedList(
    async (page, pageSize) =>
      (await listChannels(ctx, actor, {
        keyword,
        model: fields.model,
        group: fields.group,
        idSort: false,
        tagMode: false,
        page,
        pageSize,
      })) as PageOf<ChannelView>,
    filter,
    Math.max(height - 3, 1),
    REFRESH_MS,
  );
  const { page, pages, total } = list;
  const shown = list.items[list.cursor];
  /** Runs a service call on the status line, then reads the page again. */
  const act = (work: () => Promise<string>) => void run(() => work().finally(list.reload));

  const change = (channel: ChannelView, edit: Record<string, unknown>, done: (c: ChannelView) => string) =>
    act(async () => done(await updateChannel(ctx, actor, { id: channel.id, ...edit })));

  const test = ({ id, name }: ChannelView) =>
    act(async () => {
      const { success, message, time } = await testChannel(ctx, probe, id);
      const seconds = time.toFixed(2);
      if (!success) throw new Error(t`Channel ${name} failed the test: ${message}`);
      return t`Channel ${name} answered in ${seconds} s`;
    });

  const edit = (channel: ChannelView, field: "priority" | "weight", label: string) =>
    ask({
      kind: "input",
      label,
      initial: String(channel[field]),
      selected: true,
      onSubmit: (text) => {
        const value = text.trim();
        change(channel, { [field]: value }, ({ name }) => t`Channel ${name}: ${label} ${value}`);
      },
    });

  useInput(
    (input, key) => {
      if (list.onKey(key)) return;
      if (input === "/")
        ask({ kind: "input", label: t`Filter (name, model:…, group:…):`, initial: filter, onSubmit: setFilter });
      const channel = list.selected();
      if (!channel) return;
      const name = channel.name;
      if (input === "t") test(channel);
      else if (input === "e") change(channel, { status: ChannelStatus.Enabled }, () => t`Channel ${name} enabled`);
      else if (input === "d") {
        ask({
          kind: "confirm",
          question: t`Disable channel ${name}?`,
          onYes: () => change(channel, { status: ChannelStatus.ManuallyDisabled }, () => t`Channel ${name} disabled`),
        });
      } else if (input === "p") edit(channel, "priority", t`Priority`);
      else if (input === "w") edit(channel, "weight", t`Weight`);
    },
    { isActive: active },
  );

  return (
    <Box flexDirection="column" flexGrow={1}>
      <Table
        columns={columns()}
        rows={list.items}
        rowKey={(c) => c.id}
        cursor={list.cursor}
        empty={t`No channels match.`}
      />
      <Box flexGrow={1} />
      {shown ? (
        <Text dimColor wrap="truncate-end">
          {`${channelTypeName(shown.type)} | ${shown.models}`}
        </Text>
      ) : null}
      <ListFooter
        list={list}
        filter={filter}
        summary={t`Page ${page}/${pages}, ${plural(total, { one: "# channel", other: "# channels" })}`}
      />
    </Box>
  );
}
