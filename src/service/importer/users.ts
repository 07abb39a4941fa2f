import type { SourceRow } from "../../db/foreign/source";
import type { UserRow } from "../../db/schema";
import { randomAlphanumeric } from "../crypto";
import { usernameKey } from "../users/names";
import { nowSeconds } from "../time";
import { IdAllocator, item, matchedItem, type PlanItem } from "./plan";
import { num, seconds, text } from "./values";

/** Source users' ids → the ids they have in Tollgate. */
export type IdMap = Map<number, number>;

const BINDINGS = ["github_id", "wechat_id", "telegram_id", "linux_do_id", "oidc_id"] as const;

/** A source user in Tollgate's shape (its inviter still the source's id). */
function desiredUser(row: SourceRow, hashAccessToken: (token: string) => string) {
  const username = text(row, "username");
  const accessToken = text(row, "access_token");
  return {
    username,
    username_key: usernameKey(username),
    password: text(row, "password"),
    display_name: text(row, "display_name") || username,
    role: num(row, "role", 1),
    status: num(row, "status", 1),
    email: text(row, "email") || null,
    access_token_hash: accessToken ? hashAccessToken(accessToken) : null,
    ...Object.fromEntries(BINDINGS.map((b) => [b, text(row, b)])),
    quota: num(row, "quota"),
    used_quota: num(row, "used_quota"),
    request_count: num(row, "request_count"),
    group: text(row, "group") || "default",
    aff_code: text(row, "aff_code"),
    aff_count: num(row, "aff_count"),
    aff_quota: num(row, "aff_quota"),
    aff_history_quota: num(row, "aff_history"),
    inviter_id: num(row, "inviter_id"),
    setting: text(row, "setting"),
    remark: text(row, "remark"),
    created_at: seconds(row, "created_at") as number | null | undefined,
    last_login_at: seconds(row, "last_login_at") ?? 0,
    deleted_at: seconds(row, "deleted_at"),
  };
}

/** What Tollgate changes as the account is used: carried when the user is created (or taken over), then Tollgate's own. */
export const USED_HERE = [
  "quota",
  "used_quota",
  "request_count",
  "aff_count",
  "aff_quota",
  "aff_history_quota",
  "last_login_at",
] as const;

/** Source user columns the import reads (or that only mean something to the old gateway's own bookkeeping). */
const READ = new Set([
  ...["id", "username", "password", "display_name", "role", "status", "email", "access_token", "quota", "used_quota"],
  ...["request_count", "group", "aff_code", "aff_count", "aff_quota", "aff_history", "inviter_id", "setting"],
  ...["remark", "created_at", "last_login_at", "deleted_at", "updated_at", ...BINDINGS],
]);

/** Columns of source users with values that Tollgate has no place for, with how many users have one. */
export function droppedUserColumns(source: SourceRow[]): string[] {
  const counts = new Map<string, number>();
  for (const row of source)
    for (const [column, value] of Object.entries(row))
      if (!READ.has(column.toLowerCase()) && value !== null && value !== "" && value !== 0)
        counts.set(column, (counts.get(column) ?? 0) + 1);
  return [...counts].map(([column, n]) => `${column} (${n} user${n === 1 ? "" : "s"})`);
}

/** A Tollgate account nobody has used yet (a fresh install's root): the imported account of that name takes it over. */
const unused = (user: UserRow) => Number(user.used_quota) === 0 && Number(user.request_count) === 0;

/**
 * Users matched by username: the same password hash (imported before) or an unused account is the same person;
 * anyone else of that name (or a look-alike, or the same e-mail) is a conflict that stops the import.
 */
export function planUsers(
  source: SourceRow[],
  target: UserRow[],
  hashAccessToken: (token: string) => string,
): { items: PlanItem[]; ids: IdMap; balanceCarried: Set<number> } {
  const byName = new Map(target.map((u) => [u.username, u]));
  // Target users, then the source users planned so far: two look-alike names or one e-mail may not both arrive.
  const byKey = new Map<string | null, Pick<UserRow, "id" | "username">>(target.map((u) => [u.username_key, u]));
  const byEmail = new Map(
    target.filter((u) => u.email).map((u) => [u.email!.toLowerCase(), u as Pick<UserRow, "id" | "username">]),
  );
  const affCodes = new Map(target.map((u) => [u.aff_code, u.id]));
  const ids = new IdAllocator(
    target.map((u) => u.id),
    source.map((r) => num(r, "id")),
  );
  const map: IdMap = new Map();
  const items: PlanItem[] = [];
  const matched: {
    sourceId: number;
    desired: ReturnType<typeof desiredUser>;
    id: number;
    row?: UserRow;
  }[] = [];
  /** Users whose balance this run sets: new ones, and unused accounts taken over. */
  const balanceCarried = new Set<number>();
  for (const row of source) {
    const sourceId = num(row, "id");
    const desired = desiredUser(row, hashAccessToken);
    const name = desired.username;
    const existing = byName.get(name);
    if (existing && existing.password !== desired.password && !unused(existing)) {
      items.push(
        item("user", name, "conflict", { sourceId, reason: "Tollgate already has a different user of this name" }),
      );
      continue;
    }
    const lookAlike = byKey.get(desired.username_key);
    if (lookAlike && lookAlike.id !== existing?.id) {
      items.push(item("user", name, "conflict", { sourceId, reason: `looks like the user ${lookAlike.username}` }));
      continue;
    }
    const sameEmail = desired.email ? byEmail.get(desired.email.toLowerCase()) : undefined;
    if (sameEmail && sameEmail.id !== existing?.id) {
      items.push(item("user", name, "conflict", { sourceId, reason: `e-mail already used by ${sameEmail.username}` }));
      continue;
    }
    const targetId = existing?.id ?? ids.take(sourceId);
    const codeOwner = affCodes.get(desired.aff_code);
    if (!desired.aff_code || (codeOwner !== undefined && codeOwner !== targetId))
      desired.aff_code = existing?.aff_code ?? uniqueCode(affCodes);
    affCodes.set(desired.aff_code, targetId);
    byKey.set(desired.username_key, { id: targetId, username: name });
    if (desired.email) byEmail.set(desired.email.toLowerCase(), { id: targetId, username: name });
    map.set(sourceId, targetId);
    matched.push({ sourceId, desired, id: targetId, row: existing });
    if (!existing || existing.password !== desired.password) balanceCarried.add(sourceId);
  }
  for (const { sourceId, desired, id, row } of matched) {
    desired.inviter_id = map.get(desired.inviter_id) ?? 0;
    // Older versions have no created_at: a new user gets the import's time, an imported one keeps its own.
    if (desired.created_at === null) {
      if (row) delete desired.created_at;
      else desired.created_at = nowSeconds();
    }
    const ignore = balanceCarried.has(sourceId) ? [] : USED_HERE;
    items.push(matchedItem("user", desired.username, sourceId, desired, { id, row }, ignore));
  }
  return { items, ids: map, balanceCarried };
}

function uniqueCode(taken: Map<string, number>): string {
  for (;;) {
    const code = randomAlphanumeric(6);
    if (!taken.has(code)) return code;
  }
}
