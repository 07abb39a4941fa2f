import { findChannel, updateChannels } from "../../db/queries/channels";
import type { ChannelRow, UserRow } from "../../db/schema";
import { ChannelStatus } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { integerOf, type Input } from "../input";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { statusInfo } from "./status";
import { changeChannels } from "./write";

/**
 * A multi-key channel (created in mode multi_to_single): `key` holds its keys, one per line or as a JSON array
 * (an array item that is an object, such as a service-account key, counts as one key: its JSON text), and
 * `channel_info` their state, in the dialect's field names:
 *   {"is_multi_key": true, "multi_key_size": n, "multi_key_mode": "random" | "polling",
 *    "multi_key_status_list": {"<index>": 2 | 3}, "multi_key_disabled_reason": {"<index>": text},
 *    "multi_key_disabled_time": {"<index>": unix seconds}, "multi_key_polling_index": i}
 * Indexes count from 0 in the order of `key`; an index not in the status list is enabled (1); 2 is disabled by
 * an admin, 3 by the relay's auto-disable rules.
 */
export interface MultiKeyInfo {
  is_multi_key: true;
  multi_key_size: number;
  multi_key_mode: MultiKeyMode;
  multi_key_status_list: Record<string, number>;
  multi_key_disabled_reason: Record<string, string>;
  multi_key_disabled_time: Record<string, number>;
  multi_key_polling_index: number;
}

export const MULTI_KEY_MODES = ["random", "polling"] as const;
export type MultiKeyMode = (typeof MULTI_KEY_MODES)[number];
export const ALL_KEYS_DISABLED = "All keys are disabled";

/** The keys of a `key` field: a JSON array's items, else its non-blank lines. */
export function keysOf(key: string): string[] {
  const trimmed = key.trim();
  if (trimmed.startsWith("[")) {
    try {
      const items: unknown = JSON.parse(trimmed);
      if (Array.isArray(items))
        return items.map((item) => (typeof item === "string" ? item.trim() : JSON.stringify(item))).filter(Boolean);
    } catch {}
  }
  return trimmed
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

export function multiKeyModeOf(value: unknown): MultiKeyMode {
  if (value === undefined || value === null || value === "") return "random";
  return (MULTI_KEY_MODES as readonly unknown[]).includes(value)
    ? (value as MultiKeyMode)
    : refuse("multi_key_mode must be random or polling");
}

/** The state of a new multi-key channel holding `size` keys, all enabled. */
export const newMultiKeyInfo = (size: number, mode: MultiKeyMode): MultiKeyInfo => ({
  is_multi_key: true,
  multi_key_size: size,
  multi_key_mode: mode,
  multi_key_status_list: {},
  multi_key_disabled_reason: {},
  multi_key_disabled_time: {},
  multi_key_polling_index: 0,
});

/** The channel's multi-key state; undefined for a single-key channel (or unreadable state). */
export function multiKeyInfoOf(row: Pick<ChannelRow, "channel_info">): MultiKeyInfo | undefined {
  if (!row.channel_info) return undefined;
  try {
    const info = JSON.parse(row.channel_info);
    return info?.is_multi_key === true ? { ...newMultiKeyInfo(0, "random"), ...info } : undefined;
  } catch {
    return undefined;
  }
}

export const keyStatus = (info: MultiKeyInfo, index: number): number =>
  info.multi_key_status_list[String(index)] ?? ChannelStatus.Enabled;

export function enabledKeyIndexes(info: MultiKeyInfo, size: number): number[] {
  const enabled: number[] = [];
  for (let i = 0; i < size; i++) if (keyStatus(info, i) === ChannelStatus.Enabled) enabled.push(i);
  return enabled;
}

const pollingAt = new Map<number, number>();

/** The key a call uses: among the enabled ones, at random or in turn; undefined when none is enabled. */
export function pickKey(
  channelId: number,
  info: MultiKeyInfo,
  keys: string[],
): { index: number; key: string } | undefined {
  const enabled = enabledKeyIndexes(info, keys.length);
  if (enabled.length === 0) return undefined;
  let index: number;
  if (info.multi_key_mode === "polling") {
    const turn = pollingAt.get(channelId) ?? info.multi_key_polling_index;
    index = enabled[turn % enabled.length]!;
    pollingAt.set(channelId, (turn + 1) % 1_000_000);
  } else index = enabled[Math.floor(Math.random() * enabled.length)]!;
  return { index, key: keys[index]! };
}

function withKeyStatus(info: MultiKeyInfo, index: number, status: number, reason?: string): MultiKeyInfo {
  const at = String(index);
  const next: MultiKeyInfo = {
    ...info,
    multi_key_status_list: { ...info.multi_key_status_list },
    multi_key_disabled_reason: { ...info.multi_key_disabled_reason },
    multi_key_disabled_time: { ...info.multi_key_disabled_time },
  };
  if (status === ChannelStatus.Enabled) {
    delete next.multi_key_status_list[at];
    delete next.multi_key_disabled_reason[at];
    delete next.multi_key_disabled_time[at];
  } else {
    next.multi_key_status_list[at] = status;
    next.multi_key_disabled_reason[at] = reason ?? "";
    next.multi_key_disabled_time[at] = nowSeconds();
  }
  return next;
}

/**
 * Sets the status of some keys of a multi-key channel. The channel follows its keys: none enabled → the
 * channel is auto-disabled ("All keys are disabled"); one enabled again while it was so → enabled again.
 */
async function setKeyStatuses(
  ctx: ServiceContext,
  channelId: number,
  indexes: (size: number) => number[],
  status: number,
  reason?: string,
): Promise<MultiKeyInfo> {
  return changeChannels(ctx, async (tx, touched) => {
    const row = (await findChannel(tx, channelId)) ?? refuse("channel not found");
    let info = multiKeyInfoOf(row) ?? refuse("the channel is not a multi-key channel");
    const size = keysOf(row.key).length;
    for (const index of indexes(size)) info = withKeyStatus(info, index, status, reason);
    const anyEnabled = enabledKeyIndexes(info, size).length > 0;
    const patch: Partial<ChannelRow> = { channel_info: JSON.stringify(info) };
    if (!anyEnabled && row.status === ChannelStatus.Enabled) {
      patch.status = ChannelStatus.AutoDisabled;
      patch.other_info = statusInfo(ChannelStatus.AutoDisabled, ALL_KEYS_DISABLED);
    } else if (anyEnabled && row.status === ChannelStatus.AutoDisabled && row.other_info.includes(ALL_KEYS_DISABLED)) {
      patch.status = ChannelStatus.Enabled;
      patch.other_info = "";
    }
    await updateChannels(tx, [channelId], patch);
    touched.add(channelId);
    return info;
  });
}

/** The relay's auto-disable of one key of a multi-key channel. */
export const autoDisableKey = (ctx: ServiceContext, channelId: number, index: number, reason: string) =>
  setKeyStatuses(ctx, channelId, () => [index], ChannelStatus.AutoDisabled, reason);

export interface KeyState {
  index: number;
  status: number;
  disabled_reason: string;
  disabled_time: number;
}

function keyStates(info: MultiKeyInfo, size: number): KeyState[] {
  return Array.from({ length: size }, (_, index) => ({
    index,
    status: keyStatus(info, index),
    disabled_reason: info.multi_key_disabled_reason[String(index)] ?? "",
    disabled_time: info.multi_key_disabled_time[String(index)] ?? 0,
  }));
}

const ACTIONS = ["get_key_status", "enable_key", "disable_key", "enable_all_keys", "disable_all_keys"] as const;

/**
 * POST /api/channel/multi_key/manage {channel_id, action, key_index}: an admin reads each key's state (never a
 * key) or enables or disables one key or all of them. Answers every key's state after the action.
 */
export async function manageKeys(
  ctx: ServiceContext,
  actor: UserRow,
  body: Input,
): Promise<{ keys: KeyState[]; total: number; enabled: number; mode: MultiKeyMode }> {
  requireAdmin(actor);
  const channelId = integerOf(body.channel_id, "channel_id");
  const action = body.action;
  if (!(ACTIONS as readonly unknown[]).includes(action)) refuse(`action must be one of ${ACTIONS.join(", ")}`);
  const row = (await findChannel(ctx.db, channelId)) ?? refuse("channel not found");
  let info = multiKeyInfoOf(row) ?? refuse("the channel is not a multi-key channel");
  const size = keysOf(row.key).length;
  const one = () => {
    const index = integerOf(body.key_index, "key_index");
    return index >= 0 && index < size ? [index] : refuse(`key_index must be from 0 to ${size - 1}`);
  };
  const all = (n: number) => Array.from({ length: n }, (_, i) => i);
  if (action === "enable_key") info = await setKeyStatuses(ctx, channelId, one, ChannelStatus.Enabled);
  if (action === "disable_key") info = await setKeyStatuses(ctx, channelId, one, ChannelStatus.ManuallyDisabled);
  if (action === "enable_all_keys") info = await setKeyStatuses(ctx, channelId, all, ChannelStatus.Enabled);
  if (action === "disable_all_keys") info = await setKeyStatuses(ctx, channelId, all, ChannelStatus.ManuallyDisabled);
  const keys = keyStates(info, size);
  const enabled = keys.filter((k) => k.status === ChannelStatus.Enabled).length;
  return { keys, total: size, enabled, mode: info.multi_key_mode };
}
