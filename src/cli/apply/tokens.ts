import type { UserRow } from "../../service/users/directory";
import { refuse } from "../../service/errors";
import { setTokenKey } from "../../service/tokens/chosen-key";
import { createTokens } from "../../service/tokens/create";
import { mergeFields, NEW_TOKEN_FIELDS, type TokenFields } from "../../service/tokens/fields";
import { rawKeyOf } from "../../service/tokens/key";
import { listTokens } from "../../service/tokens/list";
import { revealKey } from "../../service/tokens/reveal";
import { TokenStatus } from "../../service/tokens/status";
import { updateToken } from "../../service/tokens/update";
import type { TokenView } from "../../service/tokens/view";
import { allPages, ownerOf, usersNamed } from "../lookup";
import { unixTimeOf } from "../names";
import { checkEntries, keyText } from "./document";
import { at, changedOnly, defined, diff, step, type Entry, type Planner, type Step } from "./plan";

const RULES = {
  fields: [
    "user",
    "name",
    "key",
    "status",
    "remain_quota",
    "unlimited_quota",
    "expired_time",
    "model_limits_enabled",
    "model_limits",
    "allow_ips",
    "group",
    "cross_group_retry",
  ],
  key: ["user", "name"],
} as const;

const STATUS_WORDS: Record<string, number> = { enabled: TokenStatus.Enabled, disabled: TokenStatus.Disabled };

/** A list given as a YAML list or as text. */
const listText = (value: unknown, separator: string) => (Array.isArray(value) ? value.join(separator) : value);

/** The service's input for the entry; a model list alone turns the model limit on (an empty one off). */
function inputOf(entry: Entry): Entry {
  const limits = entry.model_limits;
  const impliedLimit =
    limits === undefined ? undefined : Array.isArray(limits) ? limits.length > 0 : String(limits).trim() !== "";
  return defined({
    name: entry.name,
    remain_quota: entry.remain_quota,
    unlimited_quota: entry.unlimited_quota,
    expired_time: entry.expired_time === undefined ? undefined : unixTimeOf(entry.expired_time, -1, "expired_time"),
    model_limits_enabled: entry.model_limits_enabled ?? impliedLimit,
    model_limits: listText(limits, ","),
    allow_ips: listText(entry.allow_ips, "\n"),
    group: entry.group,
    cross_group_retry: entry.cross_group_retry,
  });
}

function statusOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  return STATUS_WORDS[String(value)] ?? refuse('status must be "enabled" or "disabled"');
}

/** A token view in the stored shape of its settable fields; expired and exhausted are still "enabled" by choice. */
const storedOf = (t: TokenView): Entry => ({
  ...t,
  unlimited_quota: Number(t.unlimited_quota),
  model_limits_enabled: Number(t.model_limits_enabled),
  cross_group_retry: Number(t.cross_group_retry),
  status: t.status === TokenStatus.Disabled ? TokenStatus.Disabled : TokenStatus.Enabled,
});

/** The fields the entry sets, checked by the token service's own rules against `base`. */
function desiredOf(input: Entry, base: TokenFields): Entry {
  const merged = mergeFields(input, base) as unknown as Entry;
  return Object.fromEntries(Object.keys(input).map((field) => [field, merged[field]]));
}

async function applyKeyAndStatus(
  planner: Planner,
  owner: UserRow,
  id: number,
  key: string | undefined,
  status: number | undefined,
) {
  if (key !== undefined) await setTokenKey(planner.ctx, planner.root, owner, id, key);
  if (status !== undefined) await updateToken(planner.ctx, owner, { id, status }, true);
}

async function planToken(planner: Planner, entry: Entry, owners: Map<string, UserRow | undefined>): Promise<Step> {
  const { ctx, root } = planner;
  const name = keyText(entry, RULES.key);
  const ownerName = String(entry.user);
  const input = inputOf(entry);
  const status = statusOf(entry.status);
  const key = entry.key === undefined ? undefined : String(entry.key);
  if (key !== undefined && !rawKeyOf(key)) refuse("key must be sk- followed by 48 letters and digits");
  const owner = owners.get(ownerName);
  const tokens = owner
    ? (
        await allPages((page, pageSize) => listTokens(ctx, owner, { keyword: String(entry.name), page, pageSize }))
      ).filter((t) => t.name === entry.name)
    : [];
  if (tokens.length > 1) refuse(`the user has ${tokens.length} tokens of this name: rename all but one`);
  const current = tokens[0];
  if (!current) {
    desiredOf(input, NEW_TOKEN_FIELDS);
    return step("token", name, "create", [], async () => {
      const creator = owner ?? (await ownerOf(ctx, root, ownerName));
      const { ids } = await createTokens(ctx, creator, input);
      await applyKeyAndStatus(planner, creator, ids[0]!, key, status === TokenStatus.Disabled ? status : undefined);
    });
  }
  const stored = storedOf(current);
  const desired = { ...desiredOf(input, stored as unknown as TokenFields), status };
  if (key !== undefined) stored.key = await revealKey(ctx, owner!, current.id);
  const changes = diff({ ...desired, key: key && `sk-${rawKeyOf(key)}` }, stored, ["key"]);
  const edit = changedOnly(input, changes);
  const changed = (field: string) => changes.some((c) => c.field === field);
  return step("token", name, "update", changes, async () => {
    if (Object.keys(edit).length > 0) await updateToken(ctx, owner!, { id: current.id, ...edit }, false);
    await applyKeyAndStatus(
      planner,
      owner!,
      current.id,
      changed("key") ? key : undefined,
      changed("status") ? status : undefined,
    );
  });
}

/** Owners by username: live users now, undefined for those the users section will create. */
async function ownersOf(
  planner: Planner,
  entries: Entry[],
  creating: Set<string>,
): Promise<Map<string, UserRow | undefined>> {
  const owners = new Map<string, UserRow | undefined>();
  for (const username of new Set(entries.map((entry) => String(entry.user)))) {
    const known = (await usersNamed(planner.ctx, planner.root, username)).length > 0;
    if (!known && !creating.has(username))
      refuse(`tokens: user "${username}" does not exist and is not in the file's users`);
    owners.set(
      username,
      known ? await at(`tokens: user "${username}"`, () => ownerOf(planner.ctx, planner.root, username)) : undefined,
    );
  }
  return owners;
}

/** Tokens by (owner username, name). Fields left out are not managed; apply never deletes a token. */
export async function planTokens(planner: Planner, entries: Entry[], creatingUsers: Set<string>): Promise<Step[]> {
  checkEntries("tokens", entries, RULES);
  const owners = await ownersOf(planner, entries, creatingUsers);
  const steps: Step[] = [];
  for (const entry of entries)
    steps.push(await at(`tokens "${keyText(entry, RULES.key)}"`, () => planToken(planner, entry, owners)));
  return steps;
}

/** The tokens of `owners`, oldest first, in the file's shape; the key only `withSecrets`. */
export async function exportTokens(planner: Planner, owners: UserRow[], withSecrets: boolean): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (const owner of owners) {
    const tokens = (await allPages((page, pageSize) => listTokens(planner.ctx, owner, { page, pageSize }))).reverse();
    for (const t of tokens) {
      const key = withSecrets ? await revealKey(planner.ctx, owner, t.id) : undefined;
      entries.push(
        defined({
          user: owner.username,
          name: t.name,
          key,
          status: t.status === TokenStatus.Disabled ? "disabled" : "enabled",
          remain_quota: t.remain_quota,
          unlimited_quota: t.unlimited_quota,
          expired_time: t.expired_time,
          model_limits_enabled: t.model_limits_enabled,
          model_limits: t.model_limits ? t.model_limits.split(",") : [],
          allow_ips: t.allow_ips ? t.allow_ips.split("\n") : [],
          group: t.group,
          cross_group_retry: t.cross_group_retry,
        }),
      );
    }
  }
  return entries;
}
