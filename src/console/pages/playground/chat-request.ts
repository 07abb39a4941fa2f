import { currentUser } from "../../state/user";

/** The side panel's choices (spec §2 'Playground'); max_tokens 0 means no limit and is not sent. */
export interface ChatSettings {
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  system: string;
}

export const DEFAULT_MODEL = "gpt-4o-mini";
export const TEMPERATURE = { min: 0.1, max: 1, step: 0.1 } as const;

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

/** The body of POST /pg/chat/completions: the system prompt first, then the conversation. */
export function chatBody(settings: ChatSettings, turns: Turn[]) {
  const system = settings.system.trim();
  return {
    model: settings.model,
    group: settings.group,
    messages: [...(system ? [{ role: "system", content: system }] : []), ...turns],
    stream: true,
    temperature: settings.temperature,
    ...(settings.maxTokens > 0 ? { max_tokens: settings.maxTokens } : {}),
  };
}

/** Starts the streamed call with the session and the user header the console sends everywhere. */
export function postChat(body: unknown, signal: AbortSignal): Promise<Response> {
  const user = currentUser.peek();
  return fetch("/pg/chat/completions", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(user ? { "New-Api-User": String(user.id) } : {}) },
    body: JSON.stringify(body),
    credentials: "same-origin",
    signal,
  });
}

/** The message of a refused call: the relay's {error: {message}} or the management API's {message}. */
export async function refusalOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string }; message?: string };
  return body.error?.message || body.message || `${response.status} ${response.statusText}`;
}
