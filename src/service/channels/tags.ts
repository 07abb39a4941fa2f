import { channelIdsWithTag, existingChannelIds } from "../../db/queries/channels";
import type { Exec } from "../../db/exec";
import type { ChannelPatch, UserRow } from "../../db/schema";
import { ChannelStatus } from "../../shared/channel-types";
import type { ServiceContext } from "../context";
import { refuse } from "../errors";
import { requireAdmin } from "../users/admin-access";
import type { Input } from "../input";
import { channelFieldsOf, tagOf } from "./fields";
import { idListOf } from "./lists";
import { patchChannels } from "./write";

export const TAG_REQUIRED = "tag cannot be empty";
export const NO_SUCH_TAG = "no channel has this tag";

function requiredTag(value: unknown): string {
  const tag = value === undefined || value === null ? "" : tagOf(value);
  return tag || refuse(TAG_REQUIRED);
}

/** Applies `patch` to every channel with the tag; answers how many. */
async function patchTag(ctx: ServiceContext, tag: string, patch: ChannelPatch): Promise<number> {
  const pick = async (tx: Exec) => {
    const ids = await channelIdsWithTag(tx, tag);
    return ids.length > 0 ? ids : refuse(NO_SUCH_TAG);
  };
  return (await patchChannels(ctx, pick, patch)).length;
}

/** Enables (clearing auto-disable reasons) or disables every channel with the tag. */
export function setTagStatus(ctx: ServiceContext, actor: UserRow, input: Input, enable: boolean): Promise<number> {
  requireAdmin(actor);
  const status = enable ? ChannelStatus.Enabled : ChannelStatus.ManuallyDisabled;
  return patchTag(ctx, requiredTag(input.tag), { status, other_info: "" });
}

const TAG_WIDE = ["models", "group", "groups", "model_mapping", "priority", "weight"];
const blank = (value: unknown) =>
  (typeof value === "string" && !value.trim()) || (Array.isArray(value) && value.length === 0);

/**
 * Edits every channel with the tag: new_tag (blank dissolves the tag), models, groups, model_mapping,
 * priority, weight. Absent, null or blank fields (an empty list too) stay as they are; nothing to change is refused.
 */
export function editTag(ctx: ServiceContext, actor: UserRow, input: Input): Promise<number> {
  requireAdmin(actor);
  const tag = requiredTag(input.tag);
  const given = Object.entries(input).filter(([name, value]) => TAG_WIDE.includes(name) && !blank(value));
  const patch: ChannelPatch = Object.fromEntries(
    Object.entries(channelFieldsOf(Object.fromEntries(given))).filter(([, v]) => v !== ""),
  );
  if (input.new_tag !== undefined && input.new_tag !== null) {
    const newTag = tagOf(input.new_tag);
    if (newTag !== tag) patch.tag = newTag;
  }
  if (Object.keys(patch).length === 0) refuse("nothing changed");
  return patchTag(ctx, tag, patch);
}

/** Puts the tag on the listed channels; ids that name no channel are passed over. Answers how many were tagged. */
export async function tagChannels(ctx: ServiceContext, actor: UserRow, input: Input): Promise<number> {
  requireAdmin(actor);
  const ids = idListOf(input.ids, "please select channels to set a tag for first");
  const tag = requiredTag(input.tag);
  return (await patchChannels(ctx, (tx) => existingChannelIds(tx, ids), { tag })).length;
}
