import type { ChannelPatch } from "../../db/schema";
import { CHANNEL_TYPES, ChannelStatus, channelTypeName } from "../../shared/channel-types";
import { refuse } from "../errors";
import { integerOf, withinLength, type Input } from "../input";
import { headerOverrideOf, modelMappingOf, paramOverrideOf, settingOf, statusCodeMappingOf } from "./json-fields";
import { listOf, refuseRepeats } from "./lists";
import { servedTypeOf } from "./served-types";

/** The fields an admin sets; the rest (balance, used quota, response time, other_info) are the server's. */
export type ChannelFields = Omit<
  ChannelPatch,
  | "id"
  | "created_time"
  | "test_time"
  | "response_time"
  | "balance"
  | "balance_updated_time"
  | "used_quota"
  | "other_info"
> & { channel_info?: string };

export const MIN_PRIORITY = -999;
const MAX_WEIGHT = 2147483647;
/** What a TEXT column holds on MySQL. */
const TEXT_BYTES = 65535;

function stringOf(value: unknown, name: string): string {
  return typeof value === "string" ? value.trim() : refuse(`${name} must be a string`);
}

const short = (name: string, max: number) => (value: unknown) => withinLength(stringOf(value, name), max, name);

const long =
  (name: string, check: (text: string) => string = (text) => text) =>
  (value: unknown) => {
    const text = check(stringOf(value, name));
    return Buffer.byteLength(text) > TEXT_BYTES ? refuse(`${name} is too long`) : text;
  };

const typeOf = (value: unknown): number => servedTypeOf(integerOf(value, "type"));

function baseUrlOf(value: unknown): string {
  const url = withinLength(stringOf(value, "base_url").replace(/\/+$/, ""), 512, "base_url");
  if (url && !/^https?:\/\/[^/\s]+/i.test(url)) refuse("base_url must be an http:// or https:// address");
  return url;
}

function modelsOf(value: unknown): string {
  const models = refuseRepeats(listOf(value, "models"), "some models already exist");
  for (const model of models) withinLength(model, 255, "a model name");
  return long("models")(models.join(","));
}

function groupsOf(value: unknown): string {
  const groups = refuseRepeats(listOf(value, "groups"), "group names must be unique");
  for (const group of groups) withinLength(group, 64, "a group name");
  return withinLength(groups.join(","), 255, "groups");
}

export function priorityOf(value: unknown): number {
  const priority = integerOf(value, "priority");
  return priority < MIN_PRIORITY ? refuse(`priority must be at least ${MIN_PRIORITY}`) : priority;
}

/** A JSON number or a string of digits (inline edits), never blank. */
const numberOf = (value: unknown): number =>
  typeof value === "number" ? value : typeof value === "string" && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;

export function weightOf(value: unknown): number {
  const weight = numberOf(value);
  if (!Number.isSafeInteger(weight) || weight < 0) refuse("weight must be a non-negative integer");
  return weight > MAX_WEIGHT ? refuse(`weight must be at most ${MAX_WEIGHT}`) : weight;
}

function flagOf(value: unknown): number {
  if (value === true || value === 1) return 1;
  return value === false || value === 0 ? 0 : refuse("auto_ban must be 0 or 1");
}

/** An admin enables or disables; auto-disabling (3) is the server's. */
function statusOf(value: unknown): number {
  const status = numberOf(value);
  return status === ChannelStatus.Enabled || status === ChannelStatus.ManuallyDisabled
    ? status
    : refuse("status must be 1 (enabled) or 2 (disabled)");
}

export const tagOf = short("tag", 64);

const READERS: { [K in Exclude<keyof Required<ChannelFields>, "channel_info">]: (value: unknown) => ChannelFields[K] } =
  {
    type: typeOf,
    name: short("name", 128),
    key: long("key"),
    base_url: baseUrlOf,
    other: long("other"),
    models: modelsOf,
    group: groupsOf,
    model_mapping: long("model_mapping", modelMappingOf),
    status_code_mapping: (value) =>
      withinLength(statusCodeMappingOf(stringOf(value, "status_code_mapping")), 1024, "status_code_mapping"),
    setting: long("setting", settingOf),
    param_override: long("param_override", paramOverrideOf),
    header_override: long("header_override", headerOverrideOf),
    tag: tagOf,
    priority: priorityOf,
    weight: weightOf,
    test_model: short("test_model", 255),
    openai_organization: short("openai_organization", 128),
    auto_ban: flagOf,
    status: statusOf,
    remark: short("remark", 255),
  };

const absent = (value: unknown) => value === undefined || value === null;

/** Reads the fields present in `input` (null counts as absent); `groups` stands for `group` when that is absent. */
export function channelFieldsOf(input: Input): ChannelFields {
  const fields: Record<string, unknown> = {};
  const source = absent(input.group) && !absent(input.groups) ? { ...input, group: input.groups } : input;
  for (const [name, read] of Object.entries(READERS)) {
    const value = source[name];
    if (!absent(value)) fields[name] = (read as (v: unknown) => unknown)(value);
  }
  return fields as ChannelFields;
}

/** The required fields of a whole channel: type, name, key, models and groups. */
export function refuseIncomplete(channel: ChannelFields): void {
  if (channel.type === undefined) refuse("type is required");
  if (!channel.name) refuse("name is required");
  if (!channel.key) refuse("key is required");
  if (!channel.models) refuse("models are required");
  if (!channel.group) refuse("groups are required");
  const other = CHANNEL_TYPES.get(channel.type!)?.other;
  if (other?.asked && !other.optional && !other.default && !channel.other?.trim())
    refuse(`other (${other.meaning}) is required for channel type ${channelTypeName(channel.type!)}`);
}
