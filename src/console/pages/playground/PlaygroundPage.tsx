import { Trans } from "@lingui/react/macro";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { currentUser } from "../../state/user";
import { useApiData } from "../../use-api-data";
import { DEFAULT_MODEL, type ChatSettings } from "./chat-request";
import { ChatBox } from "./ChatBox";
import { SettingsPanel } from "./SettingsPanel";
import { useChat } from "./use-chat";

type Groups = Record<string, { desc: string; ratio: number }>;

/** /playground: a side panel of settings and a chat box streaming from POST /pg/chat/completions. */
export default function PlaygroundPage() {
  useSignals();
  const groups = useApiData<Groups>("/api/user/self/groups");
  const models = useApiData<string[]>("/api/user/models");
  const [settings, setSettings] = useState<ChatSettings>({
    group: currentUser.value?.group ?? "",
    model: "",
    temperature: 0.7,
    maxTokens: 0,
    system: "",
  });
  const change = (part: Partial<ChatSettings>) => setSettings((s) => ({ ...s, ...part }));
  const chat = useChat(settings);
  useEffect(() => {
    const list = models.data ?? [];
    if (!settings.model && list.length > 0) change({ model: list.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : list[0]! });
  }, [models.data]);
  const noModel = models.loaded && (models.data ?? []).length === 0;
  return (
    <div className="flex flex-col gap-3" data-testid="playground-page">
      {noModel && (
        <div role="alert" className="alert alert-warning" data-testid="no-models">
          <Trans>No model is available to you yet; ask the administrator to set up a channel.</Trans>
        </div>
      )}
      <div className="flex gap-3 items-start max-tablet:flex-col max-tablet:items-stretch">
        <SettingsPanel settings={settings} onChange={change} groups={groups.data ?? {}} models={models.data ?? []} />
        <ChatBox chat={chat} disabled={!settings.model} />
      </div>
    </div>
  );
}
