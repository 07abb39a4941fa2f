import { findChannel, updateChannels } from "../../db/queries/channels";
import type { ChannelRow, UserRow } from "../../db/schema";
import type { ServiceContext } from "../context";
import { notFound, refuse } from "../errors";
import { isRoot, requireAdmin } from "../users/admin-access";
import { idOf, type Input } from "../input";
import { baseUrlOf } from "../../shared/channel-types";
import { channelFieldsOf, refuseIncomplete, type ChannelFields } from "./fields";
import { refuseUnusableKey } from "./type-key";
import { multiKeyChannel } from "./create";
import { multiKeyInfoOf } from "./multi-key";
import { toChannelView, type ChannelView } from "./view";
import { changeChannels } from "./write";

export const REENTER_KEY = "enter the key again to change where the channel sends it (base URL or type)";

/** Fields left out keep their values; a blank key keeps the stored one; a status equal to the stored one is no change. */
function editOf(input: Input, current: ChannelRow): ChannelFields {
  const edit = { ...input };
  if (typeof edit.key === "string" && !edit.key.trim()) delete edit.key;
  if (Number(edit.status) === current.status) delete edit.status;
  return channelFieldsOf(edit);
}

/** Only root, who may read the key anyway, may send the stored key to another address. */
function refuseKeyRedirect(actor: UserRow, current: ChannelRow, fields: ChannelFields): void {
  if (isRoot(actor) || fields.key !== undefined) return;
  if (baseUrlOf({ ...current, ...fields }) !== baseUrlOf(current)) refuse(REENTER_KEY);
}

/** Full or partial update ({id, status}, {id, priority}, {id, weight}); enabling or disabling clears an auto-disable reason. */
export async function updateChannel(ctx: ServiceContext, actor: UserRow, input: Input): Promise<ChannelView> {
  requireAdmin(actor);
  const id = idOf(input.id);
  return changeChannels(ctx, async (tx, touched) => {
    const current = (await findChannel(tx, id)) ?? notFound("channel");
    const fields = editOf(input, current);
    refuseIncomplete({ ...current, ...fields });
    const multiKey = multiKeyInfoOf(current);
    // New keys of a multi-key channel start enabled, in the channel's mode.
    if (multiKey && fields.key !== undefined)
      fields.channel_info = multiKeyChannel({ ...current, ...fields }, multiKey.multi_key_mode).channel_info;
    else refuseUnusableKey({ ...current, ...fields });
    refuseKeyRedirect(actor, current, fields);
    await updateChannels(tx, [id], fields.status === undefined ? fields : { ...fields, other_info: "" });
    touched.add(id);
    return toChannelView((await findChannel(tx, id))!);
  });
}
