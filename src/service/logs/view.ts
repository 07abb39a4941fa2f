import type { LogRowWithChannel } from "../../db/queries/logs";
import type { LogView } from "../../shared/views/log";
import type { LogScope } from "./filter";

export type { LogView } from "../../shared/views/log";

/** Parts of `other` only admins see: which channels were tried, and how a stream ended upstream. */
const ADMIN_ONLY_OTHER = ["admin_info", "stream_status"];

function withoutAdminParts(other: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(other);
  } catch {
    return other;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return other;
  const shown = { ...(parsed as Record<string, unknown>) };
  for (const key of ADMIN_ONLY_OTHER) delete shown[key];
  return JSON.stringify(shown);
}

function adminView(row: LogRowWithChannel): LogView {
  return {
    id: row.id,
    user_id: row.user_id,
    created_at: row.created_at,
    type: row.type,
    content: row.content,
    username: row.username,
    token_name: row.token_name,
    token_id: row.token_id,
    model_name: row.model_name,
    quota: row.quota,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    use_time: row.use_time,
    is_stream: Boolean(row.is_stream),
    channel: row.channel_id,
    channel_name: row.channel_name ?? "",
    group: row.group,
    ip: row.ip,
    request_id: row.request_id,
    other: row.other,
  };
}

/** A user's view of their own row: no channel, and `other` without its admin-only parts. */
function ownView(row: LogRowWithChannel): LogView {
  return { ...adminView(row), channel: 0, channel_name: "", other: withoutAdminParts(row.other) };
}

export const logViewOf = (scope: LogScope): ((row: LogRowWithChannel) => LogView) =>
  scope === "all" ? adminView : ownView;
