import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useMemo, useState } from "react";
import type { ChannelView } from "../../../shared/channel-types";
import { SidePanel } from "../../components/SidePanel";
import { ServerTable } from "../../components/table/ServerTable";
import { useRowSelection, withSelection } from "../../components/table/row-selection";
import { useServerPage } from "../../components/table/use-server-page";
import { persistedSignal } from "../../state/persisted";
import { BatchBar } from "./BatchBar";
import { useChannelColumns, type ChannelTableHandlers } from "./channel-columns";
import {
  channelIdOf,
  channelListUrl,
  rowKey,
  rowsOf,
  withChannel,
  type ChannelFilter,
  type ListedChannel,
} from "./channel-list";
import { ChannelForm } from "./ChannelForm";
import { ChannelSearch } from "./ChannelSearch";
import { ChannelToolbar, type ToolbarModes } from "./ChannelToolbar";
import { TagEditDialog } from "./TagEditDialog";

/** The id-sort choice is kept locally (spec §3, local settings). */
const idSort = persistedSignal<boolean>("id-sort", false);

type Editing = ChannelView | "new" | null;

export default function ChannelsPage() {
  useSignals();
  const [filter, setFilter] = useState<ChannelFilter>({ keyword: "", model: "", group: "" });
  const [modes, setModes] = useState({ tagMode: false, batch: false });
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<Editing>(null);
  const [tagEditing, setTagEditing] = useState<{ tag: string; channels: ChannelView[] } | null>(null);
  const mode = { idSort: idSort.value, tagMode: modes.tagMode };
  const page = useServerPage<ListedChannel>((p, size) => channelListUrl(filter, mode, p, size));
  const rows = useMemo(() => rowsOf(page.rows, opened), [page.rows, opened]);
  const selection = useRowSelection(rows, channelIdOf);
  const { patchRow, reload } = page;

  const handlers = useMemo<ChannelTableHandlers>(
    () => ({
      onChanged: (channel) =>
        patchRow(
          () => true,
          (item) => withChannel(item, channel),
        ),
      onReload: () => void reload(),
      onEdit: setEditing,
      onEditTag: setTagEditing,
      onToggleTag: (tag) =>
        setOpened((set) => (set.has(tag) ? new Set([...set].filter((x) => x !== tag)) : new Set([...set, tag]))),
    }),
    [patchRow, reload],
  );
  const columns = withSelection(modes.batch, selection, useChannelColumns(handlers));

  const setMode = (which: keyof ToolbarModes, on: boolean) => {
    if (which === "idSort") idSort.value = on;
    else setModes({ ...modes, [which]: on });
    if (which !== "batch") page.firstPage();
  };
  const closeAndReload = () => {
    setEditing(null);
    setTagEditing(null);
    void reload();
  };

  return (
    <div className="flex flex-col gap-3" data-testid="channels-page">
      <ChannelSearch
        onSearch={(next) => {
          page.firstPage();
          setFilter(next);
        }}
      />
      <ChannelToolbar
        modes={{ ...mode, batch: modes.batch }}
        onMode={setMode}
        onAdd={() => setEditing("new")}
        onReload={handlers.onReload}
      />
      {modes.batch && (
        <BatchBar
          ids={selection.ids}
          onDone={() => {
            selection.clear();
            void reload();
          }}
        />
      )}
      <ServerTable page={page} rows={rows} columns={columns} rowId={rowKey} testId="channels-table" />
      {editing && (
        <SidePanel
          title={editing === "new" ? <Trans>Add channel</Trans> : <Trans>Edit channel</Trans>}
          onClose={() => setEditing(null)}
        >
          <ChannelForm
            id={editing === "new" ? undefined : editing.id}
            onSaved={closeAndReload}
            onCancel={() => setEditing(null)}
          />
        </SidePanel>
      )}
      {tagEditing && (
        <TagEditDialog
          tag={tagEditing.tag}
          channels={tagEditing.channels}
          onClose={() => setTagEditing(null)}
          onSaved={closeAndReload}
        />
      )}
    </div>
  );
}
