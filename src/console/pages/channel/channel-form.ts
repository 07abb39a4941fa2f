import { otherStartOf, type ChannelView } from "../../../shared/channel-types";
import { splitList } from "./channel-list";

/** The channel form's values: numbers as typed, models and groups as lists. */
export interface ChannelDraft {
  type: number;
  name: string;
  /** One key, or on create in batch mode one per line; blank on edit keeps the stored key. */
  key: string;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string[];
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  param_override: string;
  header_override: string;
  tag: string;
  priority: string;
  weight: string;
  test_model: string;
  auto_ban: boolean;
  remark: string;
}

export const NEW_CHANNEL: ChannelDraft = {
  type: 1,
  name: "",
  key: "",
  base_url: "",
  other: "",
  openai_organization: "",
  models: [],
  groups: ["default"],
  model_mapping: "",
  status_code_mapping: "",
  setting: "",
  param_override: "",
  header_override: "",
  tag: "",
  priority: "0",
  weight: "0",
  test_model: "",
  auto_ban: true,
  remark: "",
};

/** A stored channel in the form; the key is never shown, so it starts blank. */
export const draftOf = (c: ChannelView): ChannelDraft => ({
  type: c.type,
  name: c.name,
  key: "",
  base_url: c.base_url,
  other: c.other,
  openai_organization: c.openai_organization,
  models: splitList(c.models),
  groups: splitList(c.group),
  model_mapping: c.model_mapping,
  status_code_mapping: c.status_code_mapping,
  setting: c.setting,
  param_override: c.param_override,
  header_override: c.header_override,
  tag: c.tag,
  priority: String(c.priority),
  weight: String(c.weight),
  test_model: c.test_model,
  auto_ban: c.auto_ban === 1,
  remark: c.remark,
});

/** The channel of a create or update request, as the API reads it. */
export function channelOf(draft: ChannelDraft) {
  const { groups, models, auto_ban, priority, weight, key, ...rest } = draft;
  const channel = {
    ...rest,
    name: draft.name.trim(),
    other: draft.other.trim() || otherStartOf(draft.type),
    models: models.join(","),
    group: groups.join(","),
    priority: Number(priority),
    weight: Number(weight),
    auto_ban: auto_ban ? 1 : 0,
  };
  return key.trim() ? { ...channel, key: key.trim() } : channel;
}
