import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import type { ChannelView } from "../../../shared/channel-types";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { TextArea } from "../../components/form/TextArea";
import { TextField } from "../../components/form/TextField";
import { changedKeys } from "../../diff";
import { toast } from "../../state/toasts";
import { editTag } from "./channel-calls";
import { unionOf } from "./channel-list";
import { isJsonObjectText } from "./channel-rules";

interface TagEditDialogProps {
  tag: string;
  channels: ChannelView[];
  onClose: () => void;
  onSaved: () => void;
}

/** New tag (blank dissolves it), models, groups and model mapping of every channel with the tag; only changes are sent. */
export function TagEditDialog({ tag, channels, onClose, onSaved }: TagEditDialogProps) {
  const { t } = useLingui();
  const [initial] = useState(() => ({
    new_tag: tag,
    models: unionOf(channels.map((c) => c.models)).join(","),
    groups: unionOf(channels.map((c) => c.group)).join(","),
    model_mapping: "",
  }));
  const [form, setForm] = useState(initial);
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const save = async () => {
    if (!isJsonObjectText(form.model_mapping)) return toast.error(t`The model mapping must be valid JSON!`);
    const changed = changedKeys(initial, form);
    if (changed.length === 0) return toast.error(t`Nothing changed!`);
    if (await editTag(tag, Object.fromEntries(changed.map((key) => [key, form[key].trim()])))) onSaved();
  };
  return (
    <ConfirmDialog title={<Trans>Edit tag {tag}</Trans>} onCancel={onClose} onConfirm={save}>
      <div className="flex flex-col gap-1" data-testid="tag-edit">
        <TextField
          label={t`New tag`}
          name="new_tag"
          value={form.new_tag}
          onChange={set("new_tag")}
          hint={t`Leave blank to remove the tag from its channels`}
        />
        <TextArea
          label={t`Models`}
          name="models"
          value={form.models}
          onChange={set("models")}
          rows={3}
          hint={t`Comma separated; replaces the models of every channel with the tag`}
        />
        <TextField
          label={t`Groups`}
          name="groups"
          value={form.groups}
          onChange={set("groups")}
          hint={t`Comma separated`}
        />
        <TextArea
          label={t`Model mapping (JSON)`}
          name="model_mapping"
          value={form.model_mapping}
          onChange={set("model_mapping")}
          rows={3}
          monospace
          hint={t`Leave blank to keep each channel's own`}
        />
      </div>
    </ConfirmDialog>
  );
}
