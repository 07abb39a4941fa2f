import { findChannels, insertChannel } from "../../db/queries/channels";
import type { NewChannelRow, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { nowSeconds } from "../time";
import { requireAdmin } from "../users/admin-access";
import { withinLength, type Input } from "../input";
import { channelFieldsOf, refuseIncomplete, type ChannelFields } from "./fields";
import { BATCH_MAX } from "./lists";
import { refuseUnusableKey } from "./type-key";
import { toChannelView, type ChannelView } from "./view";
import { changeChannels } from "./write";
import { keysOf, multiKeyModeOf, newMultiKeyInfo } from "./multi-key";

const MODES = ["single", "batch", "multi_to_single"] as const;
type Mode = (typeof MODES)[number];

/** The POST body is the channel itself, or {mode: "single" | "batch" | "multi_to_single", multi_key_mode, channel}. */
function unwrap(body: Input): { mode: Mode; channel: Input } {
  if (body.mode === undefined && body.channel === undefined) return { mode: "single", channel: body };
  const mode = body.mode ?? "single";
  if (!(MODES as readonly unknown[]).includes(mode)) refuse("mode must be single, batch or multi_to_single");
  const channel = body.channel;
  if (typeof channel !== "object" || channel === null || Array.isArray(channel))
    return refuse("channel must be an object");
  return { mode: mode as Mode, channel: channel as Input };
}

/** Batch: one channel per non-empty key line; with several, names get " #1", " #2", ... in line order. */
function perKeyLine(fields: ChannelFields): ChannelFields[] {
  const keys = fields
    .key!.split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  if (keys.length > BATCH_MAX) refuse(`at most ${BATCH_MAX} keys at once`);
  keys.forEach((key, i) => {
    const first = keys.indexOf(key);
    if (first !== i) refuse(`key line ${i + 1} repeats key line ${first + 1}`);
  });
  if (keys.length === 1) return [{ ...fields, key: keys[0] }];
  return keys.map((key, i) => ({ ...fields, key, name: withinLength(`${fields.name} #${i + 1}`, 128, "name") }));
}

/**
 * multi_to_single: one channel holding every key (one per line or a JSON array), each used and disabled on its
 * own (see multi-key.ts); the keys are stored as given.
 */
export function multiKeyChannel(fields: ChannelFields, mode: unknown): ChannelFields {
  const keys = keysOf(fields.key!);
  if (keys.length === 0) refuse("key is required");
  if (keys.length > BATCH_MAX) refuse(`at most ${BATCH_MAX} keys at once`);
  for (const key of keys) refuseUnusableKey({ ...fields, key });
  return { ...fields, channel_info: JSON.stringify(newMultiKeyInfo(keys.length, multiKeyModeOf(mode))) };
}

/** Inserts whole channels (with their abilities) in one transaction; answers them as stored. */
export function insertChannels(ctx: ServiceContext, channels: Partial<NewChannelRow>[]): Promise<ChannelView[]> {
  return changeChannels(ctx, async (tx, touched) => {
    const createdTime = nowSeconds();
    for (const channel of channels)
      touched.add(await insertChannel(tx, { ...channel, created_time: createdTime } as NewChannelRow));
    return (await findChannels(tx, [...touched])).map(toChannelView);
  });
}

/** Single mode answers the channel, batch mode the list of channels created. */
export async function createChannels(
  ctx: ServiceContext,
  actor: UserRow,
  body: Input,
): Promise<ChannelView | ChannelView[]> {
  requireAdmin(actor);
  const { mode, channel } = unwrap(body);
  const fields = channelFieldsOf(channel);
  refuseIncomplete(fields);
  if (mode === "multi_to_single")
    return (await insertChannels(ctx, [multiKeyChannel(fields, body.multi_key_mode)]))[0]!;
  const channels = mode === "single" ? [fields] : perKeyLine(fields);
  channels.forEach(refuseUnusableKey);
  return mode === "single" ? (await insertChannels(ctx, channels))[0]! : insertChannels(ctx, channels);
}
