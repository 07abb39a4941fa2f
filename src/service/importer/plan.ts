/** What an import does with one source row. */
export type ImportAction = "create" | "update" | "unchanged" | "skip" | "conflict";

export type ImportKind = "user" | "token" | "channel" | "option" | "redemption" | "top-up" | "log" | "task";

export interface PlanItem {
  kind: ImportKind;
  /** How people recognise the row: username, token name, channel name, option key, … */
  name: string;
  action: ImportAction;
  /** Why it is skipped or in conflict, or what differs on an update. */
  reason?: string;
  sourceId?: number;
  /** The id it has (or gets) in Tollgate; differs from sourceId when the source's id was taken. */
  targetId?: number;
  /** The row to insert (create) or the fields to change (update). */
  values?: Record<string, unknown>;
}

export const item = (
  kind: ImportKind,
  name: string,
  action: ImportAction,
  extra: Partial<PlanItem> = {},
): PlanItem => ({
  kind,
  name,
  action,
  ...extra,
});

/** The fields of `desired` that differ from `current` (ignoring those listed), as the patch of an update. */
export function changedFields(
  current: Record<string, unknown>,
  desired: Record<string, unknown>,
  ignore: readonly string[] = [],
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(desired)) {
    if (ignore.includes(field)) continue;
    const now = current[field];
    const same = typeof value === "number" || typeof now === "bigint" ? Number(now) === Number(value) : now === value;
    if (!same) patch[field] = value;
  }
  return patch;
}

/** create / update / unchanged for a row matched (or not) in the target. */
export function matchedItem(
  kind: ImportKind,
  name: string,
  sourceId: number,
  desired: Record<string, unknown>,
  match: { id: number; row: Record<string, unknown> } | { id: number; row?: undefined },
  ignore: readonly string[] = [],
): PlanItem {
  if (!match.row)
    return item(kind, name, "create", { sourceId, targetId: match.id, values: { id: match.id, ...desired } });
  const patch = changedFields(match.row, desired, ignore);
  const fields = Object.keys(patch);
  return fields.length === 0
    ? item(kind, name, "unchanged", { sourceId, targetId: match.id })
    : item(kind, name, "update", {
        sourceId,
        targetId: match.id,
        values: patch,
        reason: `changes ${fields.join(", ")}`,
      });
}

/** Hands out ids: the source's own where the target has not used it, else ones past every id of either side. */
export class IdAllocator {
  private next: number;
  private readonly used: Set<number>;

  constructor(targetIds: Iterable<number>, sourceIds: Iterable<number>) {
    this.used = new Set(targetIds);
    this.next = Math.max(0, ...this.used, ...sourceIds) + 1;
  }

  take(wanted: number): number {
    const id = wanted > 0 && !this.used.has(wanted) ? wanted : this.next++;
    this.used.add(id);
    return id;
  }
}
