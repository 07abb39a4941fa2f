import { insertChannels } from "../../service/channels/create";
import { channelFieldsOf, refuseIncomplete, type ChannelFields } from "../../service/channels/fields";
import { revealChannelKey } from "../../service/channels/key";
import { splitList } from "../../service/channels/lists";
import { updateChannel } from "../../service/channels/update";
import type { ChannelView } from "../../service/channels/view";
import { refuse } from "../../service/errors";
import { CHANNEL_TYPES, ChannelStatus } from "../../shared/channel-types";
import { allChannels } from "../lookup";
import { channelTypeOf } from "../names";
import { checkEntries, keyText } from "./document";
import {
  at,
  changedOnly,
  diff,
  jsonText,
  jsonValue,
  sameJson,
  step,
  type Entry,
  type Planner,
  type Step,
} from "./plan";

const JSON_FIELDS = ["model_mapping", "status_code_mapping", "setting"] as const;
const TEXT_FIELDS = ["base_url", "other", "tag", "test_model", "openai_organization", "remark"] as const;

const RULES = {
  fields: [
    "name",
    "type",
    "key",
    "status",
    "models",
    "groups",
    "priority",
    "weight",
    "auto_ban",
    ...TEXT_FIELDS,
    ...JSON_FIELDS,
  ],
  key: ["name"],
} as const;

/**
 * "enabled" is satisfied by a channel the server disabled automatically: that is its health, not its
 * configuration, and re-applying a file must not fight the health checks. "disabled" means by hand.
 */
const STATUS_WORDS: Record<string, number> = {
  enabled: ChannelStatus.Enabled,
  disabled: ChannelStatus.ManuallyDisabled,
};
const configuredStatus = (status: number) => (status === ChannelStatus.AutoDisabled ? ChannelStatus.Enabled : status);

function statusOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  return STATUS_WORDS[String(value)] ?? refuse('status must be "enabled" or "disabled"');
}

/** The service's input for the entry: words and objects in the shapes the API takes. */
function inputOf(entry: Entry): Record<string, unknown> {
  const input: Record<string, unknown> = { ...entry, group: entry.groups, status: statusOf(entry.status) };
  delete input.groups;
  if (entry.type !== undefined) input.type = channelTypeOf(entry.type);
  if (typeof entry.auto_ban === "boolean") input.auto_ban = entry.auto_ban ? 1 : 0;
  for (const field of JSON_FIELDS) input[field] = jsonText(entry[field]);
  return input;
}

const EQUAL = Object.fromEntries(JSON_FIELDS.map((field) => [field, sameJson]));

/** A channel to create carries its checked fields; they are inserted together (see batchCreates). */
type ChannelStep = Step & { create?: ChannelFields };

async function planChannel(
  { ctx, root }: Planner,
  entry: Entry,
  named: Map<string, ChannelView[]>,
): Promise<ChannelStep> {
  const name = String(entry.name);
  const input = inputOf(entry);
  const fields = channelFieldsOf(input) as Record<string, unknown>;
  const matches = named.get(name) ?? [];
  if (matches.length > 1)
    refuse(
      `${matches.length} channels have this name (ids ${matches.map((c) => c.id).join(", ")}): rename all but one`,
    );
  const current = matches[0];
  if (!current) {
    refuseIncomplete(fields);
    return { kind: "channel", name, action: "create", changes: [], create: fields };
  }
  const stored: Record<string, unknown> = { ...current, status: configuredStatus(current.status) };
  if (fields.key !== undefined) stored.key = (await revealChannelKey(ctx, root, current.id)).key;
  const changes = diff(fields, stored, ["key"], EQUAL);
  return step(
    "channel",
    name,
    "update",
    changes,
    async () => void (await updateChannel(ctx, root, { id: current.id, ...changedOnly(fields, changes) })),
  );
}

/** Channels by name; a name two stored channels share is refused. Fields left out are not managed; apply never deletes. */
export async function planChannels(planner: Planner, entries: Entry[]): Promise<Step[]> {
  checkEntries("channels", entries, RULES);
  const named = new Map<string, ChannelView[]>();
  for (const channel of await allChannels(planner.ctx, planner.root))
    named.set(channel.name, [...(named.get(channel.name) ?? []), channel]);
  const steps: ChannelStep[] = [];
  for (const entry of entries)
    steps.push(await at(`channels "${keyText(entry, RULES.key)}"`, () => planChannel(planner, entry, named)));
  return batchCreates(planner, steps);
}

/**
 * New channels go in with one transaction (and one routing-table rebuild on every server), checked as
 * createChannels checks them; the first create step runs the batch, so a refusal adds none of them.
 */
function batchCreates({ ctx }: Planner, steps: ChannelStep[]): Step[] {
  const creates = steps.filter((s) => s.create);
  const first = creates[0];
  if (first)
    first.run = async () =>
      void (await insertChannels(
        ctx,
        creates.map((s) => s.create!),
      ));
  return steps.map(({ create: _fields, ...shown }) => shown);
}

/** Every channel, oldest first, in the file's shape; the key only `withSecrets`. */
export async function exportChannels(planner: Planner, withSecrets: boolean): Promise<Entry[]> {
  const channels = (await allChannels(planner.ctx, planner.root)).reverse();
  const entries: Entry[] = [];
  for (const c of channels) {
    const entry: Entry = { name: c.name, type: CHANNEL_TYPES.get(c.type)?.name ?? c.type };
    if (withSecrets) entry.key = (await revealChannelKey(planner.ctx, planner.root, c.id)).key;
    Object.assign(entry, {
      status: configuredStatus(c.status) === ChannelStatus.Enabled ? "enabled" : "disabled",
      models: splitList(c.models),
      groups: splitList(c.group),
      priority: c.priority,
      weight: c.weight,
      auto_ban: Boolean(c.auto_ban),
    });
    for (const field of TEXT_FIELDS) if (c[field]) entry[field] = c[field];
    for (const field of JSON_FIELDS) if (c[field]?.trim()) entry[field] = jsonValue(c[field]);
    entries.push(entry);
  }
  return entries;
}
