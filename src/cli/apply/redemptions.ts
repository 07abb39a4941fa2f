import { refuse } from "../../service/errors";
import { BATCH_MAX, createRedemptions } from "../../service/redemptions/create";
import { mergeFields, NEW_CODE_FIELDS } from "../../service/redemptions/fields";
import { listRedemptions } from "../../service/redemptions/list";
import { RedemptionStatus } from "../../service/redemptions/status";
import { updateRedemption } from "../../service/redemptions/update";
import type { RedemptionView } from "../../service/redemptions/view";
import { nowSeconds } from "../../service/time";
import { integerOf } from "../../service/input";
import { allPages } from "../lookup";
import { unixTimeOf } from "../names";
import { checkEntries, keyText } from "./document";
import { at, defined, type Change, type Entry, type Planner, type Step } from "./plan";

const RULES = { fields: ["name", "quota", "count", "expired_time"], key: ["name"] } as const;

/**
 * Codes by name: `count` is how many live codes of the name should exist (used ones included), so apply
 * creates only the missing ones and never deletes; quota and expiry are kept in step on the unused ones
 * (used codes are final, disabled ones stay as they are). New codes are listed by `tollgate redemption list`.
 */
async function planRedemption(
  { ctx, root }: Planner,
  entry: Entry,
  named: Map<string, RedemptionView[]>,
): Promise<Step> {
  const name = String(entry.name).trim();
  const count = entry.count === undefined ? 1 : integerOf(entry.count, "count");
  if (count < 1) refuse("count must be at least 1");
  const input = defined({
    name,
    quota: entry.quota,
    expired_time: entry.expired_time === undefined ? undefined : unixTimeOf(entry.expired_time, 0, "expired_time"),
  });
  const codes = named.get(name) ?? [];
  const fields = mergeFields(ctx, input, codes[0] ?? NEW_CODE_FIELDS, nowSeconds());
  const wanted = Object.fromEntries(Object.keys(input).map((field) => [field, fields[field as keyof typeof fields]]));
  const missing = Math.max(0, count - codes.length);
  const stale = codes.filter(
    (code) =>
      code.status === RedemptionStatus.Unused &&
      Object.keys(wanted).some((field) => code[field as keyof RedemptionView] !== wanted[field]),
  );
  const changes: Change[] = [];
  if (missing > 0 && codes.length > 0) changes.push({ field: "count", from: codes.length, to: count });
  if (stale.length > 0) changes.push({ field: "unused codes", from: stale.length, to: wanted });
  const action = codes.length === 0 ? "create" : changes.length > 0 ? "update" : "unchanged";
  const note =
    codes.length > count
      ? `${codes.length} codes of this name exist, more than ${count}; apply does not delete`
      : undefined;
  const run = async () => {
    for (let left = missing; left > 0; left -= BATCH_MAX) {
      await createRedemptions(ctx, root, { ...fields, count: Math.min(left, BATCH_MAX) });
    }
    for (const code of stale) await updateRedemption(ctx, root, { id: code.id, ...wanted }, false);
  };
  return { kind: "redemption", name, action, changes, note, run: action === "unchanged" ? undefined : run };
}

const allCodes = ({ ctx, root }: Planner) =>
  allPages((page, pageSize) => listRedemptions(ctx, root, { page, pageSize }));

export async function planRedemptions(planner: Planner, entries: Entry[]): Promise<Step[]> {
  checkEntries("redemptions", entries, RULES);
  const named = new Map<string, RedemptionView[]>();
  for (const code of await allCodes(planner)) named.set(code.name, [...(named.get(code.name) ?? []), code]);
  const steps: Step[] = [];
  for (const entry of entries)
    steps.push(await at(`redemptions "${keyText(entry, RULES.key)}"`, () => planRedemption(planner, entry, named)));
  return steps;
}

/** One entry per name: how many live codes, and the quota and expiry of the newest. Codes themselves are not exported. */
export async function exportRedemptions(planner: Planner): Promise<Entry[]> {
  const byName = new Map<string, RedemptionView[]>();
  for (const code of await allCodes(planner)) byName.set(code.name, [...(byName.get(code.name) ?? []), code]);
  return [...byName].reverse().map(([name, codes]) => ({
    name,
    quota: codes[0]!.quota,
    count: codes.length,
    expired_time: codes[0]!.expired_time,
  }));
}
