import type { ChannelTagRow, ChannelView } from "../../../shared/channel-types";
import { query } from "../../api";

/** An item of the list route: a channel, or in tag mode a tag row. */
export type ListedChannel = ChannelView | ChannelTagRow;

/** A row of the table: a channel (inside an opened tag row or on its own) or a tag row. */
export type ChannelRowItem =
  | { kind: "channel"; channel: ChannelView; inTag: boolean }
  | { kind: "tag"; tag: string; channels: ChannelView[]; open: boolean };

export interface ChannelFilter {
  keyword: string;
  model: string;
  group: string;
}

export interface ListMode {
  idSort: boolean;
  tagMode: boolean;
}

/** GET /api/channel/ (or /search when a filter is set) for one page. */
export function channelListUrl(filter: ChannelFilter, mode: ListMode, page: number, size: number): string {
  const searching = Boolean(filter.keyword || filter.model || filter.group);
  const params = { ...filter, p: page, page_size: size, id_sort: String(mode.idSort), tag_mode: String(mode.tagMode) };
  return `/api/channel/${searching ? "search" : ""}${query(params)}`;
}

const isTagRow = (item: ListedChannel): item is ChannelTagRow => "channels" in item;

/** The table's rows: a tag row (tag "" holds one untagged channel) is followed by its channels when opened. */
export function rowsOf(items: ListedChannel[], opened: ReadonlySet<string>): ChannelRowItem[] {
  return items.flatMap((item): ChannelRowItem[] => {
    if (!isTagRow(item)) return [{ kind: "channel", channel: item, inTag: false }];
    if (!item.tag) return item.channels.map((channel) => ({ kind: "channel", channel, inTag: false }));
    const open = opened.has(item.tag);
    const children = open ? item.channels.map((channel) => ({ kind: "channel" as const, channel, inTag: true })) : [];
    return [{ kind: "tag", tag: item.tag, channels: item.channels, open }, ...children];
  });
}

export const rowKey = (row: ChannelRowItem) => (row.kind === "tag" ? `tag:${row.tag}` : String(row.channel.id));
export const channelIdOf = (row: ChannelRowItem) => (row.kind === "channel" ? row.channel.id : undefined);

export const splitList = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The entries of several comma lists, each once, in first-seen order. */
export const unionOf = (lists: string[]) => [...new Set(lists.flatMap(splitList))];

/** `items` with `channel` in place of the one with its id, inside tag rows too. */
export const withChannel = (item: ListedChannel, channel: ChannelView): ListedChannel =>
  isTagRow(item)
    ? { ...item, channels: item.channels.map((c) => (c.id === channel.id ? channel : c)) }
    : item.id === channel.id
      ? channel
      : item;
