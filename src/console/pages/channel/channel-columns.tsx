import { useLingui } from "@lingui/react/macro";
import { useMemo, type ReactNode } from "react";
import { channelTypeName, ChannelStatus, type ChannelView } from "../../../shared/channel-types";
import { columnsFor, type PagedColumns } from "../../components/table/paged-table";
import { showQuota } from "../../state/status";
import { ChannelActions, type ChannelRowHandlers } from "./ChannelActions";
import { BalanceCell } from "./BalanceCell";
import { editTag, patchChannel } from "./channel-calls";
import { unionOf, type ChannelRowItem } from "./channel-list";
import { channelPriority, channelWeight, tagPriority, tagWeight, type Parsed } from "./channel-rules";
import { ChannelStatusBadge, ResponseTime } from "./ChannelStatusBadge";
import { InlineNumber } from "./InlineNumber";
import { TagActions } from "./TagActions";

type TagItem = Extract<ChannelRowItem, { kind: "tag" }>;
type ChannelItem = Extract<ChannelRowItem, { kind: "channel" }>;

export interface ChannelTableHandlers extends ChannelRowHandlers {
  onEditTag: (tag: TagItem) => void;
  onToggleTag: (tag: string) => void;
}

const column = columnsFor<ChannelRowItem>();

const Badges = ({ items, tone = "badge-outline" }: { items: string[]; tone?: string }) => (
  <div className="flex flex-wrap gap-1">
    {items.map((item) => (
      <span key={item} className={`badge badge-sm ${tone}`}>
        {item}
      </span>
    ))}
  </div>
);

export function useChannelColumns(handlers: ChannelTableHandlers): PagedColumns<ChannelRowItem> {
  const { t, i18n } = useLingui();
  return useMemo(() => {
    const { onChanged, onReload } = handlers;
    /** A column whose cell differs for channel rows and tag rows. */
    const both = (
      id: string,
      header: string,
      ofChannel: (item: ChannelItem) => ReactNode,
      ofTag: (item: TagItem) => ReactNode,
    ) =>
      column.display({
        id,
        header,
        cell: ({ row }) => (row.original.kind === "tag" ? ofTag(row.original) : ofChannel(row.original)),
      });
    const saveChannel = (channel: ChannelView, field: "priority" | "weight") => async (value: number) => {
      const after = await patchChannel(channel.id, { [field]: value });
      if (after) onChanged(after);
      return Boolean(after);
    };
    const saveTag = (tag: string, field: "priority" | "weight") => async (value: number) => {
      const saved = await editTag(tag, { [field]: value });
      if (saved) onReload();
      return saved;
    };
    const number = (
      name: "priority" | "weight",
      label: string,
      parse: (text: string) => Parsed,
      value: number,
      save: (value: number) => Promise<boolean>,
    ) => <InlineNumber name={name} label={label} value={value} parse={parse} onSave={save} />;
    return column.columns([
      both(
        "id",
        "ID",
        ({ channel, inTag }) => <span className={inTag ? "pl-4" : ""}>{channel.id}</span>,
        ({ tag, open }) => (
          <button
            type="button"
            className="btn btn-xs btn-ghost"
            data-testid="toggle-tag"
            aria-expanded={open}
            onClick={() => handlers.onToggleTag(tag)}
          >
            {open ? "▾" : "▸"}
          </button>
        ),
      ),
      both(
        "name",
        t`Name`,
        ({ channel, inTag }) => (
          <div className="flex flex-wrap items-center gap-1" title={channel.remark || undefined}>
            <span className="font-medium">{channel.name}</span>
            {channel.tag && !inTag && <span className="badge badge-sm badge-info">{channel.tag}</span>}
          </div>
        ),
        ({ tag, channels }) => (
          <div className="flex flex-wrap items-center gap-1" data-testid="tag-row">
            <span className="badge badge-sm badge-info">{t`Tag`}</span>
            <span className="font-medium">{tag}</span>
            <span className="text-xs opacity-60">{t`${channels.length} channels`}</span>
          </div>
        ),
      ),
      both(
        "group",
        t`Group`,
        ({ channel }) => <Badges items={unionOf([channel.group])} />,
        ({ channels }) => <Badges items={unionOf(channels.map((c) => c.group))} />,
      ),
      both(
        "type",
        t`Type`,
        ({ channel }) => channelTypeName(channel.type),
        ({ channels }) => [...new Set(channels.map((c) => channelTypeName(c.type)))].join(", "),
      ),
      both(
        "status",
        t`Status`,
        ({ channel }) => <ChannelStatusBadge channel={channel} />,
        ({ channels }) => {
          const enabled = channels.filter((c) => c.status === ChannelStatus.Enabled).length;
          return (
            <span className="badge badge-sm badge-ghost whitespace-nowrap">{t`${enabled} of ${channels.length} enabled`}</span>
          );
        },
      ),
      both(
        "response",
        t`Response time`,
        ({ channel }) => <ResponseTime channel={channel} />,
        () => null,
      ),
      both(
        "balance",
        t`Used / balance`,
        ({ channel }) => <BalanceCell channel={channel} onChanged={onChanged} />,
        ({ channels }) => (
          <span className="badge badge-sm badge-outline" title={t`Used`}>
            {showQuota(channels.reduce((sum, c) => sum + c.used_quota, 0))}
          </span>
        ),
      ),
      both(
        "priority",
        t`Priority`,
        ({ channel }) =>
          number("priority", t`Priority`, channelPriority, channel.priority, saveChannel(channel, "priority")),
        ({ tag, channels }) =>
          number(
            "priority",
            t`Priority of every channel with the tag`,
            tagPriority,
            channels[0]?.priority ?? 0,
            saveTag(tag, "priority"),
          ),
      ),
      both(
        "weight",
        t`Weight`,
        ({ channel }) => number("weight", t`Weight`, channelWeight, channel.weight, saveChannel(channel, "weight")),
        ({ tag, channels }) =>
          number(
            "weight",
            t`Weight of every channel with the tag`,
            tagWeight,
            channels[0]?.weight ?? 0,
            saveTag(tag, "weight"),
          ),
      ),
      both(
        "actions",
        t`Actions`,
        ({ channel }) => <ChannelActions channel={channel} {...handlers} />,
        (item) => <TagActions tag={item.tag} onReload={onReload} onEdit={() => handlers.onEditTag(item)} />,
      ),
    ]);
  }, [i18n.locale, handlers]);
}
