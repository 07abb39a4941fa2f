import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type FormEvent } from "react";
import { CHANNEL_TYPES, otherStartOf, type ChannelView } from "../../../shared/channel-types";
import { api } from "../../api";
import { SubmitOrCancel } from "../../components/form/FormButtons";
import { SelectField } from "../../components/form/SelectField";
import { TextArea } from "../../components/form/TextArea";
import { TextField } from "../../components/form/TextField";
import { Toggle } from "../../components/form/Toggle";
import { toast } from "../../state/toasts";
import { relatedModels } from "./channel-calls";
import { channelOf, draftOf, NEW_CHANNEL, type ChannelDraft } from "./channel-form";
import { GroupPicker } from "./GroupPicker";
import { JsonFields } from "./JsonFields";
import { ModelPicker } from "./ModelPicker";
import { MultiKeyPanel } from "./MultiKeyPanel";
import { ResponsesApiField } from "./ResponsesApiField";
import { ServiceAccountUpload } from "./ServiceAccountUpload";
import { TypeFields } from "./TypeFields";
import { useTypeOptions } from "./use-type-options";
import { useDraftCheck } from "./use-draft-check";

/** Custom channels' address names the model with it (the relay replaces it). */
const MODEL_PLACEHOLDER = "{model}";

/** Creates a channel (id absent; batch keys one per line) or edits one (a blank key keeps the stored key). */
export function ChannelForm({ id, onSaved, onCancel }: { id?: number; onSaved: () => void; onCancel: () => void }) {
  const { t } = useLingui();
  const check = useDraftCheck();
  const creating = id === undefined;
  const [draft, setDraft] = useState<ChannelDraft | null>(creating ? NEW_CHANNEL : null);
  const [batch, setBatch] = useState(false);
  /** Create mode multi_to_single: one channel holding every key line, used "random" or in turn ("polling"). */
  const [multiKey, setMultiKey] = useState<"" | "random" | "polling">("");
  const [multiKeyChannel, setMultiKeyChannel] = useState(false);
  const typeOptions = useTypeOptions(draft?.type ?? NEW_CHANNEL.type);
  useEffect(() => {
    if (id !== undefined)
      void api.get<ChannelView>(`/api/channel/${id}`).then((reply) => {
        if (!reply.ok) return;
        setDraft(draftOf(reply.data));
        setMultiKeyChannel(reply.data.channel_info.includes('"is_multi_key":true'));
      });
  }, [id]);
  if (!draft) return <span className="loading loading-spinner" />;
  const set =
    <K extends keyof ChannelDraft>(key: K) =>
    (value: ChannelDraft[K]) =>
      setDraft((d) => d && { ...d, [key]: value });

  const changeType = async (value: string) => {
    const type = Number(value);
    setDraft((d) => d && { ...d, type, other: otherStartOf(type) });
    if (creating && CHANNEL_TYPES.get(type)?.ownModels) set("models")(await relatedModels(type));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = check(draft, creating);
    if (problem) return toast.error(problem);
    const channel = channelOf(draft);
    const reply = creating
      ? await api.post<ChannelView | ChannelView[]>("/api/channel/", {
          mode: multiKey ? "multi_to_single" : batch ? "batch" : "single",
          multi_key_mode: multiKey || undefined,
          channel,
        })
      : await api.put<ChannelView>("/api/channel/", { id, ...channel });
    if (!reply.ok) return;
    toast.success(
      Array.isArray(reply.data)
        ? t`${reply.data.length} channels created`
        : creating
          ? t`Channel created`
          : t`Channel updated`,
    );
    onSaved();
  };
  const facts = CHANNEL_TYPES.get(draft.type);
  const baseUrlHint = facts?.baseUrlIsFullAddress
    ? t`The full address requests are sent to; ${MODEL_PLACEHOLDER} in it stands for the upstream model`
    : t`Leave blank for the type's default address`;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-1" data-testid="channel-form">
      <SelectField label={t`Type`} name="type" value={String(draft.type)} options={typeOptions} onChange={changeType} />
      <TextField label={t`Name`} name="name" value={draft.name} onChange={set("name")} />
      <TextField
        label={t`Base URL`}
        name="base_url"
        value={draft.base_url}
        onChange={set("base_url")}
        placeholder={facts?.baseUrl || "https://"}
        hint={baseUrlHint}
      />
      <TypeFields draft={draft} set={set} />
      <TextArea
        label={t`Key`}
        name="key"
        value={draft.key}
        onChange={set("key")}
        rows={batch || multiKey || facts?.keyIsServiceAccount ? 6 : 2}
        monospace
        placeholder={
          creating
            ? batch || multiKey
              ? t`One key per line`
              : t`The upstream's key`
            : t`Leave blank to keep the stored key`
        }
        hint={facts?.keyIsServiceAccount ? t`The service account's JSON key` : undefined}
      />
      {facts?.keyIsServiceAccount && <ServiceAccountUpload onLoad={set("key")} />}
      {creating && (
        <>
          <Toggle
            label={t`Batch create: one channel per key line`}
            name="batch"
            checked={batch}
            onChange={(on) => {
              setBatch(on);
              if (on) setMultiKey("");
            }}
          />
          <SelectField
            label={t`Several keys in one channel`}
            name="multi_key_mode"
            value={multiKey}
            options={[
              { value: "", label: t`No: one key` },
              { value: "random", label: t`Yes: a random enabled key per call` },
              { value: "polling", label: t`Yes: the enabled keys in turn` },
            ]}
            onChange={(value) => {
              setMultiKey(value as "" | "random" | "polling");
              if (value) setBatch(false);
            }}
          />
        </>
      )}
      {!creating && multiKeyChannel && <MultiKeyPanel channelId={id} />}
      <GroupPicker groups={draft.groups} onChange={set("groups")} />
      <ModelPicker
        models={draft.models}
        onChange={set("models")}
        source={{ id, type: draft.type, base_url: draft.base_url, key: draft.key }}
      />
      <TextField
        label={t`Test model`}
        name="test_model"
        value={draft.test_model}
        onChange={set("test_model")}
        hint={t`Leave blank to test with the first model`}
      />
      <ResponsesApiField type={draft.type} setting={draft.setting} onChange={set("setting")} />
      <JsonFields draft={draft} set={set} />
      <div className="grid grid-cols-3 gap-2">
        <TextField label={t`Tag`} name="tag" value={draft.tag} onChange={set("tag")} />
        <TextField
          label={t`Priority`}
          name="priority"
          type="number"
          step="1"
          value={draft.priority}
          onChange={set("priority")}
        />
        <TextField
          label={t`Weight`}
          name="weight"
          type="number"
          step="1"
          value={draft.weight}
          onChange={set("weight")}
        />
      </div>
      <Toggle
        label={t`Disable automatically on failure`}
        name="auto_ban"
        checked={draft.auto_ban}
        onChange={set("auto_ban")}
      />
      <TextField label={t`Remark`} name="remark" value={draft.remark} onChange={set("remark")} />
      <SubmitOrCancel submit={<Trans>Submit</Trans>} onCancel={onCancel} />
    </form>
  );
}
