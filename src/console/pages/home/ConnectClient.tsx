import { Trans, useLingui } from "@lingui/react/macro";
import { Copy, ExternalLink, Plug } from "lucide-react";
import { useEffect, useState } from "react";
import { fillChatLink, serverAddress, siteChatLinks } from "../../chat-links";
import { SelectField } from "../../components/form/SelectField";
import { copyText } from "../../state/clipboard";
import { useApiData } from "../../use-api-data";
import { revealKey } from "../token/token-api";
import { CLIENTS, type Client, snippetFor } from "./client-snippets";

interface TokenItem {
  id: number;
  name: string;
  status: number;
}

const KEY_PLACEHOLDER = "sk-…";
const DEFAULT_MODEL = "gpt-4o-mini";

/** "Connect a client": copy-ready setups for this gateway's address with a token of the user's, and the site's chat links. */
export function ConnectClient({ models }: { models: string[] }) {
  const { t } = useLingui();
  const tokens = useApiData<{ items: TokenItem[] }>("/api/token/?p=1&size=100");
  const usable = (tokens.data?.items ?? []).filter((token) => token.status === 1);
  const [tokenId, setTokenId] = useState<number>();
  const [key, setKey] = useState<string>();
  const [client, setClient] = useState<Client>("curl");
  const chosen = tokenId ?? usable[0]?.id;
  useEffect(() => {
    setKey(undefined);
    if (chosen !== undefined) void revealKey(chosen).then(setKey);
  }, [chosen]);
  const labels: Record<Client, string> = {
    curl: "curl",
    python: t`Python (openai)`,
    node: t`Node.js (openai)`,
    "claude-code": "Claude Code",
    codex: "Codex CLI",
    "gemini-cli": "Gemini CLI",
  };
  const model = models.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : (models[0] ?? DEFAULT_MODEL);
  const snippet = snippetFor(client, { base: serverAddress(), key: key ?? KEY_PLACEHOLDER, model });
  const chats = siteChatLinks() ?? [];
  return (
    <div className="card bg-base-100 shadow" data-testid="connect-client">
      <div className="card-body p-4 gap-3">
        <h2 className="card-title text-base">
          <Plug size={18} aria-hidden="true" />
          <Trans>Connect a client</Trans>
        </h2>
        {tokens.loaded && usable.length === 0 ? (
          <p className="opacity-80" data-testid="no-token">
            <Trans>
              Create an enabled token first (
              <a href="/token" className="link link-primary">
                Tokens
              </a>
              ), then come back for ready-made settings.
            </Trans>
          </p>
        ) : (
          <SelectField
            label={<Trans>Token</Trans>}
            name="home-token"
            value={String(chosen ?? "")}
            options={usable.map((token) => ({ value: String(token.id), label: token.name }))}
            onChange={(value) => setTokenId(Number(value))}
          />
        )}
        <div role="tablist" className="tabs tabs-box tabs-sm flex-wrap" aria-label={t`Client`}>
          {CLIENTS.map((c) => (
            <button
              key={c}
              type="button"
              role="tab"
              aria-selected={client === c}
              className={`tab ${client === c ? "tab-active" : ""}`}
              data-client={c}
              onClick={() => setClient(c)}
            >
              {labels[c]}
            </button>
          ))}
        </div>
        <div className="relative">
          <pre
            className="bg-base-200 rounded-box p-3 pe-12 text-xs overflow-x-auto"
            data-testid="snippet"
            // A scrolling code box must be reachable by keyboard (axe: scrollable-region-focusable).
            tabIndex={0}
          >
            <code>{snippet}</code>
          </pre>
          <button
            type="button"
            className="btn btn-sm btn-ghost bg-base-200 absolute top-1 right-1"
            aria-label={t`Copy`}
            title={t`Copy`}
            data-testid="copy-snippet"
            onClick={() => copyText(snippet, t`Copied to the clipboard`)}
          >
            <Copy size={16} aria-hidden="true" />
          </button>
        </div>
        {chats.length > 0 && key && (
          <div className="flex flex-wrap gap-2 items-center" data-testid="home-chats">
            <span className="text-sm opacity-70">
              <Trans>Chat apps:</Trans>
            </span>
            {chats.map((chat) => (
              <a
                key={chat.name}
                className="btn btn-xs"
                href={fillChatLink(chat.template, key)}
                target="_blank"
                rel="noopener noreferrer"
              >
                <ExternalLink size={12} aria-hidden="true" />
                {chat.name}
              </a>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
