import type { ChannelRow } from "../../db/schema";
import type { ChannelView } from "../../shared/channel-types";

export type { ChannelTagRow, ChannelView } from "../../shared/channel-types";

/**
 * What the API shows of a channel: an allow-list, so the key (and any column added later) stays in.
 * Leaving out a field of ChannelView does not compile.
 */
const SHOWN = [
  "id",
  "type",
  "name",
  "status",
  "base_url",
  "other",
  "models",
  "group",
  "model_mapping",
  "status_code_mapping",
  "setting",
  "param_override",
  "header_override",
  "tag",
  "priority",
  "weight",
  "test_model",
  "openai_organization",
  "auto_ban",
  "response_time",
  "balance",
  "balance_updated_time",
  "used_quota",
  "created_time",
  "test_time",
  "other_info",
  "channel_info",
  "remark",
] as const satisfies readonly (keyof ChannelView)[];

export const toChannelView = (row: ChannelRow): ChannelView =>
  Object.fromEntries(SHOWN.map((field) => [field, row[field]])) as Pick<ChannelRow, (typeof SHOWN)[number]>;

export interface ChannelPage<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
}
