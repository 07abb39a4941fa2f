import { findChannel } from "../../db/queries/channels";
import { newestLogFacts } from "../../db/queries/logs";
import type { UserRow } from "../../db/schema";
import { LogType } from "../../shared/constants";
import type { ClientTypeSeen, GroupSeen } from "../../shared/upstream-clients";
import type { ServiceContext } from "../context";
import { notFound } from "../errors";
import { idOf } from "../input";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";

/** How far back, and at most how many of the channel's newest calls, the detection reads. */
export const DETECT_DAYS = 30;
export const DETECT_MAX_ROWS = 50_000;

/** The logged client type of a consume row ("unknown" for rows logged before client types were recorded). */
function clientTypeIn(other: string): string {
  try {
    const value = (JSON.parse(other) as { client_type?: unknown }).client_type;
    return typeof value === "string" && value ? value : "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * Who calls through a channel: its consume rows of the last 30 days (the newest 50 000 at most) per group, with
 * the kinds of client seen in each (most calls first) and when each was first and last seen.
 */
export async function detectUpstreamClients(ctx: ServiceContext, actor: UserRow, id: unknown): Promise<GroupSeen[]> {
  requireAdmin(actor);
  const channel = (await findChannel(ctx.db, idOf(id))) ?? notFound("channel");
  const rows = await newestLogFacts(
    ctx.db,
    { channelId: channel.id, type: LogType.Consume, start: nowSeconds() - DETECT_DAYS * 86_400 },
    DETECT_MAX_ROWS,
  );
  const groups = new Map<string, { seen: GroupSeen; types: Map<string, ClientTypeSeen> }>();
  for (const row of rows) {
    const at = row.created_at;
    let entry = groups.get(row.group);
    if (!entry) {
      entry = { seen: { group: row.group, first_seen: at, last_seen: at, client_types: [] }, types: new Map() };
      groups.set(row.group, entry);
    }
    entry.seen.first_seen = Math.min(entry.seen.first_seen, at);
    entry.seen.last_seen = Math.max(entry.seen.last_seen, at);
    const clientType = clientTypeIn(row.other);
    const seen = entry.types.get(clientType);
    if (seen) {
      seen.count++;
      seen.first_seen = Math.min(seen.first_seen, at);
      seen.last_seen = Math.max(seen.last_seen, at);
    } else entry.types.set(clientType, { client_type: clientType, count: 1, first_seen: at, last_seen: at });
  }
  const result = [...groups.values()].map(({ seen, types }) => ({
    ...seen,
    client_types: [...types.values()].sort((a, b) => b.count - a.count || a.client_type.localeCompare(b.client_type)),
  }));
  return result.sort((a, b) => b.last_seen - a.last_seen || a.group.localeCompare(b.group));
}
